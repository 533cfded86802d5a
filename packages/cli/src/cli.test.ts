import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// These tests run the real, built binary (npm test builds before it runs vitest).
const bin = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const examples = fileURLToPath(new URL('../../../examples', import.meta.url));

function roundkeeper(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function exampleFiles(): string[] {
  return readdirSync(examples, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ya?ml|json)$/.test(f))
    .sort();
}

describe('roundkeeper run', () => {
  for (const file of exampleFiles()) {
    it(`replays examples/${file} with every expectation met`, () => {
      const r = roundkeeper('run', join(examples, file));
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain('every expectation met');
      expect(r.code).toBe(0);
    });
  }

  it('prints events and the final state with --json', () => {
    const r = roundkeeper('run', join(examples, 'classic/ambush.yaml'), '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { ok: boolean; events: unknown[]; state: { status: string } };
    expect(out.ok).toBe(true);
    expect(out.events.length).toBeGreaterThan(20);
    expect(out.state.status).toBe('ended');
  });

  it('draws the ASCII timeline unless --no-timeline', () => {
    expect(roundkeeper('run', join(examples, 'classic/ambush.yaml')).stdout).toContain('legend:');
    expect(roundkeeper('run', join(examples, 'classic/ambush.yaml'), '--no-timeline').stdout).not.toContain(
      'legend:',
    );
  });

  it('exits 2 with a helpful message for a missing file', () => {
    const r = roundkeeper('run', 'no/such/file.yaml');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no such file');
  });

  it('exits 2 for bad YAML and for an invalid scenario, naming the problem', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rk-'));
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'schema: 1\nname: [unclosed\n');
    const r1 = roundkeeper('run', bad);
    expect(r1.code).toBe(2);
    expect(r1.stderr).toContain('not valid YAML');
    const invalid = join(dir, 'invalid.json');
    writeFileSync(invalid, JSON.stringify({ schema: 1, name: 'x' }));
    const r2 = roundkeeper('run', invalid);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain('"ruleset"');
  });

  it('exits 1 when an expectation is not met, and says which', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rk-'));
    const file = join(dir, 'unmet.yaml');
    writeFileSync(
      file,
      [
        'schema: 1',
        'name: unmet',
        'ruleset: classic',
        'combatants: [{ id: a, name: A }]',
        'commands:',
        '  - { type: start, initiative: { a: 10 }, expect: { round: 2 } }',
      ].join('\n'),
    );
    const r = roundkeeper('run', file);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('expected round = 2, got 1');
  });

  it('exits 1 on a bad flag or command', () => {
    expect(roundkeeper('run', '--frobnicate').code).toBe(1);
    expect(roundkeeper('frobnicate').code).toBe(1);
  });

  it('--help lists commands, exit codes and examples', () => {
    const r = roundkeeper('--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('run');
    expect(r.stdout).toContain('Exit codes');
    expect(roundkeeper('run', '--help').stdout).toContain('Examples');
  });
});

describe('roundkeeper rulesets', () => {
  it('lists every ruleset with its options', () => {
    const r = roundkeeper('rulesets', '--json');
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout) as Array<{ id: string; options: unknown[]; catalog: unknown[] }>;
    expect(list.map((x) => x.id)).toContain('classic');
    for (const x of list) expect(x.catalog.length).toBeGreaterThan(0);
  });

  it('refuses an unknown ruleset with the installed ones', () => {
    const r = roundkeeper('rulesets', 'nope');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Installed: classic');
  });
});
