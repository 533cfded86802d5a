import { readdirSync, readFileSync } from 'node:fs';
import { transformSync } from '@babel/core';
import { describe, expect, it } from 'vitest';
import { preactAlias } from '../scripts/preact-alias.js';

// React Compiler over every component of the app: a function it bails out of is drawn again whenever its
// parent is, however little changed. Every bail-out today is listed here, by file and reason; a new one
// fails, and so does one that went away and is still listed (the list only shrinks).

const KNOWN: Record<string, number> = {
  'forms/AddCombatant.tsx: (BuildHIR::lowerAssignment) Handle computed properties in ObjectPattern': 2,
};

interface CompilerEvent {
  kind: string;
  detail?: { reason?: string; options?: { reason?: string } };
}

/** Each bail-out of the compiler over the app's components, as "file: reason", counted. */
function bailOuts(): { found: Record<string, number>; compiled: number } {
  const dir = new URL('.', import.meta.url);
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.tsx'));
  const found: Record<string, number> = {};
  let compiled = 0;
  for (const file of files) {
    transformSync(readFileSync(new URL(file, dir), 'utf8'), {
      filename: file,
      babelrc: false,
      configFile: false,
      code: false,
      parserOpts: { plugins: ['typescript', 'jsx'] },
      plugins: [
        [
          'babel-plugin-react-compiler',
          {
            // Report every bail-out instead of stopping at the first.
            panicThreshold: 'none',
            logger: {
              logEvent(_file: string, event: CompilerEvent) {
                if (event.kind === 'CompileSuccess') compiled++;
                if (event.kind !== 'CompileError' && event.kind !== 'PipelineError') return;
                const reason = event.detail?.reason ?? event.detail?.options?.reason ?? event.kind;
                const key = `${file.split('\\').join('/')}: ${reason}`;
                found[key] = (found[key] ?? 0) + 1;
              },
            },
          },
        ],
      ],
    });
  }
  return { found, compiled };
}

describe('React Compiler', () => {
  it('compiles every component but the listed ones, and the list only shrinks', () => {
    const { found, compiled } = bailOuts();
    expect(compiled).toBeGreaterThan(30);
    const news = Object.entries(found).filter(([key, n]) => n > (KNOWN[key] ?? 0));
    expect(news, `new bail-outs: ${JSON.stringify(news)}`).toEqual([]);
    const gone = Object.entries(KNOWN).filter(([key, n]) => (found[key] ?? 0) < n);
    expect(gone, 'bail-outs fixed: lower their count in KNOWN').toEqual([]);
  }, 60_000);

  it("imports its runtime from a module the build resolves to Preact's (scripts/preact-alias.ts)", async () => {
    const out = transformSync('export function Hp({ hp }) { return <b title={String(hp)}>{hp}</b>; }', {
      filename: 'Hp.tsx',
      babelrc: false,
      configFile: false,
      parserOpts: { plugins: ['jsx'] },
      plugins: ['babel-plugin-react-compiler'],
    });
    const runtime = /from ["']([^"']*compiler-runtime)["']/.exec(out?.code ?? '')?.[1];
    expect(runtime).toBeDefined();
    const alias = preactAlias.find((a) => a.find instanceof RegExp && a.find.test(runtime!));
    expect(alias?.replacement).toBe('preact/compat/compiler-runtime');
    // The cache the compiled component asks for (`c(size)`) is there.
    const compat = (await import('preact/compat/compiler-runtime')) as { c?: unknown };
    expect(typeof compat.c).toBe('function');
  });
});
