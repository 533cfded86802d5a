#!/usr/bin/env node
// Counts the casts in non-test TypeScript source: `as T` (not `as const`), `<T>x`, non-null `x!`, and
// how many of the `as` casts go through `unknown`. Usage: node scripts/count-casts.mjs [dir…] [--files]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseSync } from 'oxc-parser';

/** Casts in one source text: `as T` (not `as const`), `<T>x`, `x!`, and the `as` casts through `unknown`. */
export function countCasts(source, fileName = 'x.ts') {
  const counts = { as: 0, nonNull: 0, viaUnknown: 0 };
  const visit = (node) => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    if (!node || typeof node !== 'object') return;
    if (node.type === 'TSAsExpression' || node.type === 'TSTypeAssertion') {
      const t = node.typeAnnotation;
      const isConst =
        t.type === 'TSTypeReference' && t.typeName.type === 'Identifier' && t.typeName.name === 'const';
      if (!isConst) {
        counts.as++;
        const inner =
          node.expression.type === 'ParenthesizedExpression' ? node.expression.expression : node.expression;
        if (inner.type === 'TSAsExpression' && inner.typeAnnotation.type === 'TSUnknownKeyword')
          counts.viaUnknown++;
      }
    } else if (node.type === 'TSNonNullExpression') counts.nonNull++;
    for (const key in node) if (key !== 'parent') visit(node[key]);
  };
  visit(parseSync(fileName, source, { lang: fileName.endsWith('x') ? 'tsx' : 'ts' }).program);
  return counts;
}

function* sources(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (
      /\.tsx?$/.test(name) &&
      !/\.(test|property\.test|d)\.tsx?$/.test(name) &&
      !/test-|fixtures/.test(name) &&
      !path.includes('/testing/')
    )
      yield path;
  }
}

export function countTree(dir) {
  const files = {};
  for (const path of sources(dir)) files[path] = countCasts(readFileSync(path, 'utf8'), path);
  return files;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const perFile = args.includes('--files');
  const dirs = args.filter((a) => !a.startsWith('--'));
  for (const dir of dirs.length ? dirs : ['packages/engine/src', 'packages/rulesets/src']) {
    const files = countTree(dir);
    const total = { as: 0, nonNull: 0, viaUnknown: 0 };
    const rows = Object.entries(files).map(([path, c]) => {
      total.as += c.as;
      total.nonNull += c.nonNull;
      total.viaUnknown += c.viaUnknown;
      return [path, c];
    });
    if (perFile)
      for (const [path, c] of rows.sort((a, b) => b[1].as + b[1].nonNull - a[1].as - a[1].nonNull))
        if (c.as + c.nonNull)
          console.log(
            `${String(c.as + c.nonNull).padStart(4)}  as ${c.as}  ! ${c.nonNull}  via unknown ${c.viaUnknown}  ${path}`,
          );
    console.log(
      `${dir}: ${total.as + total.nonNull} casts (as ${total.as}, ! ${total.nonNull}; ${total.viaUnknown} via unknown)`,
    );
  }
}
