import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Every `:has(…)` argument in a stylesheet's text, its parentheses balanced. */
function hasArguments(css: string): string[] {
  const found: string[] = [];
  for (let at = css.indexOf(':has('); at !== -1; at = css.indexOf(':has(', at + 1)) {
    let depth = 0;
    let end = at + 4;
    for (; end < css.length; end++) {
      if (css[end] === '(') depth++;
      else if (css[end] === ')' && --depth === 0) break;
    }
    found.push(css.slice(at + 5, end).trim());
  }
  return found;
}

describe('the stylesheet', () => {
  it('finds the arguments of :has()', () => {
    expect(hasArguments('a:has(.b) .c {} html:has(main.tracker) {} .x:has(+ .y:is(:focus)) {}')).toEqual([
      '.b',
      'main.tracker',
      '+ .y:is(:focus)',
    ]);
  });

  // A `:has()` over an element's descendants is asked again for its ancestors at every element a change
  // inserts or removes under them (a turn that passes rewrites the palette, two cards and the headline):
  // what such a rule selects carries a class the page sets instead (`html.tracker-page`, `.card.movable`,
  // `li.has-more`). A `:has()` of a following sibling (`+`, `~`) looks at one element's neighbours only.
  it('has no :has() over descendants, only of siblings', () => {
    const css = readFileSync(join(src, 'styles.css'), 'utf8');
    const over = hasArguments(css).filter((a) => !a.startsWith('+') && !a.startsWith('~'));
    expect(over).toEqual([]);
  });
});
