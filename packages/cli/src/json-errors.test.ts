import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Errors a script can read: with --json every command's refusals come out on stderr as one JSON object
// shaped as the API's errors ({"error": {"code", "message"}}), stdout stays empty, and the exit code is the
// documented one. Without --json they stay sentences. These run the built binary (npm test builds first).

const bin = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const examples = fileURLToPath(new URL('../../../examples', import.meta.url));
const duel = join(examples, 'simulate/classic-duel.yaml');

function roundkeeper(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    timeout: 30_000,
    input: '',
    env: { ...process.env, PORT: '', RK_PORT: '', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The JSON error a command printed on stderr (and nothing else there). */
function jsonError(stderr: string): { code: string; message: string } {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  const parsed = JSON.parse(lines[0]!) as { error: { code: string; message: string } };
  expect(Object.keys(parsed)).toEqual(['error']);
  expect(typeof parsed.error.code).toBe('string');
  expect(parsed.error.code).toMatch(/^[a-z]+\/[a-z-]+$/);
  expect(typeof parsed.error.message).toBe('string');
  return parsed.error;
}

const dir = mkdtempSync(join(tmpdir(), 'rk-json-errors-'));
const badYaml = join(dir, 'bad.yaml');
writeFileSync(badYaml, 'name: Broken\nruleset: classic: yes\n');
const unknownRuleset = join(dir, 'unknown.yaml');
writeFileSync(unknownRuleset, 'schema: 2\nname: X\nruleset: chess\ncombatants: []\n');
const invalid = join(dir, 'invalid.yaml');
writeFileSync(invalid, 'schema: 2\nname: X\nruleset: classic\ncombatants: 3\n');

describe('--json errors, for each command', () => {
  const cases: Array<{ args: string[]; exit: number; code: string | RegExp; says: string }> = [
    { args: ['run', 'no/such.yaml', '--json'], exit: 2, code: 'file/unreadable', says: 'no such file' },
    { args: ['run', badYaml, '--json'], exit: 2, code: 'file/invalid-yaml', says: 'line 2, column' },
    { args: ['run', invalid, '--json'], exit: 2, code: /^scenario\//, says: 'combatants' },
    {
      args: ['run', '--json'],
      exit: 1,
      code: 'usage/missing-argument',
      says: "missing required argument 'file'",
    },
    { args: ['run', duel, '--json', '--frob'], exit: 1, code: 'usage/unknown-option', says: "'--frob'" },
    {
      args: ['rulesets', 'chess', '--json'],
      exit: 1,
      code: 'ruleset/unknown',
      says: 'There is no ruleset "chess"',
    },
    { args: ['play', '--ruleset', 'chess', '--json'], exit: 1, code: 'command/refused', says: '"chess"' },
    {
      args: ['play', duel, '--ruleset', 'classic', '--json'],
      exit: 1,
      code: 'usage/conflicting-arguments',
      says: 'not both',
    },
    {
      args: ['simulate', duel, '--trials', '0', '--json'],
      exit: 1,
      code: 'usage/invalid-option',
      says: '--trials must be',
    },
    { args: ['simulate', unknownRuleset, '--json'], exit: 2, code: 'input/invalid', says: '"chess"' },
    { args: ['analyze', 'no/such.yaml', '--json'], exit: 2, code: 'file/unreadable', says: 'no such file' },
    { args: ['export', unknownRuleset, '--json'], exit: 2, code: 'ruleset/unknown', says: 'not installed' },
    { args: ['import', badYaml, '--json'], exit: 2, code: 'file/invalid-yaml', says: 'not valid YAML' },
    { args: ['frobnicate', '--json'], exit: 1, code: 'usage/unknown-command', says: "'frobnicate'" },
    {
      args: ['serve', '--port', 'eighty', '--json'],
      exit: 1,
      code: 'usage/invalid-option',
      says: '--port must be',
    },
  ];
  for (const { args, exit, code, says } of cases) {
    it(`roundkeeper ${args.join(' ').replace(dir, '…')}`, () => {
      const r = roundkeeper(args);
      expect(r.code, r.stderr).toBe(exit);
      expect(r.stdout).toBe('');
      const error = jsonError(r.stderr);
      if (typeof code === 'string') expect(error.code).toBe(code);
      else expect(error.code).toMatch(code);
      expect(error.message).toContain(says);
      expect(error.message).not.toMatch(/^roundkeeper/);
    });
  }

  it('without --json the same errors stay sentences, with commander its hint', () => {
    const r = roundkeeper(['run', duel, '--frob']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("error: unknown option '--frob'");
    expect(r.stderr).toContain('(run with --help for usage)');
    expect(() => JSON.parse(r.stderr)).toThrow();
    const missing = roundkeeper(['run', 'no/such.yaml']);
    expect(missing.stderr).toMatch(/^roundkeeper: Cannot read no\/such\.yaml: no such file/);
  });

  it('--help and --version with --json still print their text, exit 0', () => {
    const help = roundkeeper(['run', '--help', '--json']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: roundkeeper run');
    expect(roundkeeper(['--version', '--json']).stdout.trim()).toBe('0.1.0');
  });

  it('a --json after -- is an argument, not the switch', () => {
    const r = roundkeeper(['run', '--', '--json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^roundkeeper: Cannot read --json/);
  });
});

describe('export and import with --json', () => {
  it('print the scenario as JSON, or what --out wrote; unmet expectations are a JSON error, exit 1', () => {
    const exported = roundkeeper(['export', join(examples, 'classic/ambush.yaml'), '--json']);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toBe('');
    const scenario = JSON.parse(exported.stdout) as { ruleset: string; commands: unknown[] };
    expect(scenario.ruleset).toBe('classic');
    const out = join(dir, 'ambush.yaml');
    const wrote = roundkeeper(['export', join(examples, 'classic/ambush.yaml'), '--out', out, '--json']);
    expect(JSON.parse(wrote.stdout)).toEqual({ wrote: out, commands: scenario.commands.length });

    const unmet = join(dir, 'unmet.json');
    writeFileSync(unmet, JSON.stringify({ ...scenario, expect: { round: 99 } }));
    const r = roundkeeper(['import', unmet, '--json']);
    expect(r.code).toBe(1);
    expect((JSON.parse(r.stdout) as { ruleset: string }).ruleset).toBe('classic');
    const error = jsonError(r.stderr);
    expect(error.code).toBe('scenario/expectation-not-met');
    expect(error.message).toContain('round');
  });
});

describe('messages a script (or a person) can act on', () => {
  it('PORT=99999 is reported as PORT, the variable that set it, not as --port', () => {
    const r = roundkeeper(['serve'], { PORT: '99999' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'roundkeeper serve: PORT must be a whole number from 0 to 65535, not "99999".',
    );
    const rk = roundkeeper(['serve', '--json'], { RK_PORT: '-3' });
    expect(jsonError(rk.stderr)).toEqual({
      code: 'usage/invalid-option',
      message: 'RK_PORT must be a whole number from 0 to 65535, not "-3".',
    });
    expect(roundkeeper(['serve'], { RK_LOG_LEVEL: 'loud' }).stderr).toContain('RK_LOG_LEVEL must be one of');
    // A flag wins over the environment, and is named when it is the one at fault.
    expect(roundkeeper(['serve', '--port', '70000'], { PORT: '8080' }).stderr).toContain(
      '--port must be a whole number from 0 to 65535, not "70000".',
    );
  });

  it('a bad-YAML error keeps its code frame: the line and a caret under the problem', () => {
    const r = roundkeeper(['run', badYaml]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/at line 2, column \d+:\n\nruleset: classic: yes\n +\^/);
    const json = jsonError(roundkeeper(['run', badYaml, '--json']).stderr);
    expect(json.message).toMatch(/at line 2, column \d+:\n\nruleset: classic: yes\n +\^/);
  });
});
