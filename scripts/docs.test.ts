import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import GithubSlugger from 'github-slugger';
import { lexer, type Token, type Tokens, walkTokens } from 'marked';
import { describe, expect, it } from 'vitest';

// Docs a newcomer can find their way in: docs/README.md lists every page; every relative link and image
// in the README and docs/ resolves (a file or folder of the repository, and a #heading of that page);
// every `npx roundkeeper …` line the README shows names a command and options that exist (each checked
// against that command's --help). fresh-clone.test.ts runs those lines for real on a fresh clone.

const repo = resolve(import.meta.dirname, '..');

function markdownFiles(dir: string): string[] {
  return readdirSync(join(repo, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(dir, f))
    .sort();
}

const pages = ['README.md', ...markdownFiles('docs')];
const tokensOf = (path: string): Token[] => lexer(readFileSync(join(repo, path), 'utf8'));

/** The anchors GitHub makes for a page's headings (`## Server memory` → `#server-memory`). */
function anchorsOf(path: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  walkTokens(tokensOf(path), (token) => {
    if (token.type === 'heading') anchors.add(slugger.slug((token as Tokens.Heading).text));
  });
  return anchors;
}

/** Every link and image of a page: its target as written. */
function linksOf(path: string): string[] {
  const links: string[] = [];
  walkTokens(tokensOf(path), (token) => {
    if (token.type === 'link' || token.type === 'image') links.push((token as Tokens.Link).href);
  });
  return links;
}

describe('the docs', () => {
  it('docs/README.md lists every page of docs/', () => {
    const index = new Set(linksOf('docs/README.md').map((href) => join('docs', href.split('#')[0]!)));
    const unlisted = markdownFiles('docs').filter((page) => page !== 'docs/README.md' && !index.has(page));
    expect(unlisted).toEqual([]);
    expect(linksOf('README.md')).toContain('docs/README.md');
  });

  it('every relative link and image resolves: the file or folder, and the heading it points at', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of pages) {
      for (const href of linksOf(page)) {
        if (/^[a-z]+:/i.test(href)) continue; // https:, mailto:
        checked++;
        const [target = '', anchor] = href.split('#');
        const file = target === '' ? page : relative(repo, resolve(repo, dirname(page), decodeURI(target)));
        if (file.startsWith('..') || !existsSync(join(repo, file))) {
          broken.push(`${page}: ${href} (no ${file})`);
          continue;
        }
        if (anchor !== undefined && anchor !== '') {
          if (!file.endsWith('.md') || statSync(join(repo, file)).isDirectory()) continue;
          if (!anchorsOf(file).has(anchor))
            broken.push(`${page}: ${href} (no heading #${anchor} in ${file})`);
        }
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });

  it('the README shows a screenshot of the web app that exists in docs/images', () => {
    const images = linksOf('README.md').filter((href) => /\.(png|jpe?g|svg|webp)$/.test(href));
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) {
      expect(image).toMatch(/^docs\/images\//);
      expect(existsSync(join(repo, image)), image).toBe(true);
    }
  });
});

/** The command lines of the README: its ```sh blocks (comments left out) and its inline code spans. */
function readmeCommands(): string[] {
  const lines: string[] = [];
  walkTokens(tokensOf('README.md'), (token) => {
    if (token.type === 'code' && (token as Tokens.Code).lang === 'sh')
      for (const line of (token as Tokens.Code).text.split('\n'))
        lines.push(line.replace(/\s+#\s.*$/, '').trim());
    if (token.type === 'codespan') lines.push((token as Tokens.Codespan).text.trim());
  });
  return lines.filter((line) => /^(npx roundkeeper|npm start)( |$)/.test(line));
}

const cli = join(repo, 'packages/cli/dist/main.js');
const helpCache = new Map<string, { code: number | null; text: string }>();
function help(command: string): { code: number | null; text: string } {
  if (!helpCache.has(command)) {
    const r = spawnSync(process.execPath, [cli, ...(command ? [command] : []), '--help'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    helpCache.set(command, { code: r.status, text: r.stdout });
  }
  return helpCache.get(command)!;
}

describe("the README's command lines", () => {
  it('name commands and options that exist: each option is in its command --help (needs a build)', () => {
    const commands = readmeCommands();
    expect(commands).toContain('npx roundkeeper export examples/classic/ambush.yaml --out ambush.yaml');
    expect(commands.some((c) => c.startsWith('npx roundkeeper import '))).toBe(true);
    const topHelp = help('');
    expect(topHelp.code).toBe(0);
    const known = [...topHelp.text.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]!);
    expect(known).toContain('serve');
    const wrong: string[] = [];
    for (const line of commands) {
      const words = line.split(/\s+/);
      // `npm start -- …` is `roundkeeper serve …`.
      const [command, ...rest] = words[0] === 'npm' ? ['serve', ...words.slice(3)] : words.slice(2);
      if (command === undefined || command.startsWith('-')) {
        // `npx roundkeeper --help`, `--version`
        if (command && !topHelp.text.includes(command)) wrong.push(`${line}: no ${command} in --help`);
        continue;
      }
      if (!known.includes(command)) {
        wrong.push(`${line}: there is no command ${command}`);
        continue;
      }
      const { code, text } = help(command);
      if (code !== 0) wrong.push(`${line}: ${command} --help exited ${code}`);
      for (const option of rest.filter((w) => w.startsWith('--')).map((w) => w.split('=')[0]!))
        if (!new RegExp(`(^|[\\s,])${option}([\\s,=]|$)`, 'm').test(text))
          wrong.push(`${line}: ${command} has no option ${option}`);
    }
    expect(wrong).toEqual([]);
    expect(commands.length).toBeGreaterThan(10);
  });
});
