import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeRulesets } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it, onTestFinished } from 'vitest';

// These tests run the real, built binary (npm test builds before it runs vitest).
const bin = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const examples = fileURLToPath(new URL('../../../examples', import.meta.url));

function roundkeeper(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs the binary with `input` on stdin (a pipe, not a terminal: scripted mode). */
function withInput(input: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000, input });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const duel = join(examples, 'simulate/classic-duel.yaml');
const tmp = () => mkdtempSync(join(tmpdir(), 'rk-'));

function exampleFiles(): string[] {
  return (
    readdirSync(examples, { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.(ya?ml|json)$/.test(f))
      // Another tracker's export, read by `import` (tested below), not a scenario `run` replays.
      .filter((f) => !f.startsWith('improved-initiative'))
      .sort()
  );
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

  it('refuses a combatant with a stat its ruleset lacks, in run and import alike, naming the stats there are', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rk-'));
    const file = join(dir, 'stat.yaml');
    writeFileSync(
      file,
      [
        'schema: 1',
        'name: stat',
        'ruleset: classic',
        'combatants: [{ name: A, stats: { initiativeBonus: 2 } }]',
      ].join('\n'),
    );
    for (const command of ['run', 'import']) {
      const r = roundkeeper(command, file);
      expect(r.code, command).not.toBe(0);
      expect(r.stderr, command).toContain(
        'Classic has no stat "initiativeBonus" (given for A); its stats are initiative',
      );
    }
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
    // One description for every client: the server's GET /api/rulesets gives the same JSON.
    expect(list).toEqual(JSON.parse(JSON.stringify(describeRulesets(rulesets))));
  });

  it('shows one ruleset with the fields each action takes, from the same description', () => {
    const r = roundkeeper('rulesets', 'classic');
    expect(r.code).toBe(0);
    const classic = describeRulesets(rulesets).find((d) => d.id === 'classic')!;
    const taking = classic.catalog.find((a) => a.takes.length > 0)!;
    expect(r.stdout).toContain(
      `takes: ${taking.takes.map((p) => `${p.label}${p.required ? '' : ' (optional)'}`).join(', ')}`,
    );
  });

  it('stops quietly when its reader stops early (| head): no EPIPE crash', () => {
    // The shell's pipeline, so the reader closes the pipe after its first bytes.
    const r = spawnSync(
      'sh',
      ['-c', `"${process.execPath}" "${bin}" rulesets --json | head -c 20 > /dev/null`],
      { encoding: 'utf8', timeout: 30_000, env: { ...process.env } },
    );
    expect(r.stderr).not.toContain('EPIPE');
    expect(r.stderr).toBe('');
  });

  it('refuses an unknown ruleset with the installed ones', () => {
    const r = roundkeeper('rulesets', 'nope');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Installed: classic');
  });
});

describe('roundkeeper play (scripted through stdin)', () => {
  it('shows the actor, legal actions with reasons and the timeline, and runs short commands', () => {
    const r = withInput('act ana attack\nnext\nact orc attack target=ana\nundo\nactions orc\n', 'play', duel);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('▶ Ana [ana, PC] HP 22/22');
    expect(r.stdout).toContain('Actions for Ana:');
    expect(r.stdout).toMatch(
      /- reaction\s+Reaction \(1 reaction\) — A reaction is taken on someone else's turn/,
    );
    expect(r.stdout).toContain('legend:');
    expect(r.stdout).toContain('> act ana attack\n  Ana: Attack.');
    expect(r.stdout).toContain('  Orc: Attack → Ana.');
    expect(r.stdout).toContain('Undo (command');
  });

  it("prints the rule's sentence for a refused command and exits 1", () => {
    const empty = withInput('', 'play', duel, '--no-timeline');
    expect(empty.code).toBe(0);
    // Nothing was played: the state is printed once, not again at the end.
    expect(empty.stdout.split('Actions for').length - 1).toBe(1);
    const r = withInput('act orc attack\n{"type": "next"}\n', 'play', duel, '--no-timeline');
    expect(r.stdout).toContain(
      "refused: It is Ana's turn; Attack is taken on Orc's own turn. [turn/not-yours]",
    );
    expect(r.stdout).toContain("Orc's turn.");
    expect(r.code).toBe(1);
  });

  it('explains a line it cannot read', () => {
    const r = withInput('act ana attack orc extra\n{not json\n', 'play', duel, '--no-timeline');
    expect(r.stdout).toContain('is not understood');
    expect(r.stdout).toContain('not valid JSON');
    expect(r.code).toBe(1);
  });

  it('--json prints one object per line with the legal actions', () => {
    const r = withInput('next\nact ana attack\nquit\nnext\n', 'play', duel, '--json');
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ ok: true, current: 'orc' });
    expect(lines[1]).toMatchObject({ ok: false, rejection: { code: 'turn/not-yours' } });
    expect(r.code).toBe(1);
  });

  it('a number line takes that numbered enabled action of the current actor, as the number keys do', () => {
    const r = withInput('1\n99\n', 'play', duel, '--no-timeline');
    expect(r.stdout).toContain('> 1\n  Ana: Attack.');
    expect(r.stdout).toContain('> 99\nThere is no enabled action 99 now');
    expect(r.code).toBe(1);
  });

  it('takes JSON values in the short syntax: add-combatant combatant={…} and lists after =', () => {
    const r = withInput(
      'add-combatant combatant={"id": "cat", "name": "Big Cat", "side": "npc"}\nactions cat\n',
      'play',
      duel,
      '--no-timeline',
    );
    expect(r.stdout).toContain('Actions for Big Cat:');
    expect(r.code).toBe(0);
  });

  it.skipIf(!existsSync('/usr/bin/script'))(
    'is driven by single keys at a terminal (n next, 1 the first action, u undo, q quit)',
    async () => {
      const { spawn } = await import('node:child_process');
      // `script` gives the command a pseudo-terminal, so play runs its keyboard loop in raw mode.
      const proc = spawn(
        'script',
        ['-qfc', `"${process.execPath}" "${bin}" play "${duel}" --no-timeline`, '/dev/null'],
        {
          stdio: ['pipe', 'pipe', 'pipe'],
        },
      );
      let out = '';
      const seen = (text: string, from: number) =>
        new Promise<number>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no "${text}" in: ${out.slice(from)}`)), 10_000);
          const check = () => {
            const at = out.indexOf(text, from);
            if (at < 0) return;
            clearTimeout(timer);
            proc.stdout.off('data', check);
            resolve(at + text.length);
          };
          proc.stdout.on('data', check);
          check();
        });
      proc.stdout.on('data', (d: Buffer) => {
        out += d.toString('utf8');
      });
      let at = await seen('Keys: n next', 0);
      proc.stdin.write('1');
      at = await seen('Ana: Attack.', at);
      proc.stdin.write('n');
      at = await seen("Orc's turn.", at);
      proc.stdin.write('u');
      at = await seen('Undo (command', at);
      const code = new Promise((resolve) => proc.once('exit', resolve));
      proc.stdin.write('q');
      expect(await code).toBe(0);
    },
    20_000,
  );

  it('--ruleset starts an empty encounter; export saves a scenario that run replays', () => {
    const file = join(tmp(), 'fight.yaml');
    const script = [
      '{"type": "add-combatant", "combatant": {"id": "a", "name": "A", "side": "pc", "stats": {"initiative": 2}}}',
      '{"type": "add-combatant", "combatant": {"id": "b", "name": "B"}}',
      'start',
      'next',
      'next',
      `export ${file}`,
    ].join('\n');
    const r = withInput(script, 'play', '--ruleset', 'classic', '--seed', '5');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Saved 5 commands');
    const replay = roundkeeper('run', file);
    expect(replay.stdout).toContain('every expectation met');
    expect(replay.code).toBe(0);
  });
});

describe('roundkeeper simulate and analyze', () => {
  it('agree within the 95% confidence interval on P(Ana acts before the orc)', () => {
    const sim = roundkeeper('simulate', duel, '--trials', '3000', '--seed', '11', '--json');
    expect(sim.code).toBe(0);
    const s = JSON.parse(sim.stdout) as {
      questions: Array<{ p: { mean: number; low: number; high: number } }>;
    };
    const exact = JSON.parse(roundkeeper('analyze', duel, '--json').stdout) as {
      before: Record<string, Record<string, number>>;
    };
    const p = exact.before.ana!.orc!;
    // 1d20+2 vs 1d20, ties to the higher modifier: 1 − P(orc > ana) = 1 − 153/400.
    expect(p).toBeCloseTo(247 / 400, 12);
    const q = s.questions[0]!.p;
    expect(q.low).toBeLessThanOrEqual(p);
    expect(q.high).toBeGreaterThanOrEqual(p);
    expect(q.high - q.low).toBeLessThan(0.05);
  });

  it('agree on "Why the Full Round?": P(the monster strikes between the 2nd and 3rd attack)', () => {
    const file = join(examples, 'simulate/tara-corax-why-full-round.yaml');
    const sim = roundkeeper('simulate', file, '--trials', '2000', '--seed', '5', '--json');
    expect(sim.code).toBe(0);
    const s = JSON.parse(sim.stdout) as {
      path: string;
      questions: Array<{ p: { mean: number; low: number; high: number } }>;
    };
    // Named events need the engine's log.
    expect(s.path).toBe('engine');
    const exact = JSON.parse(roundkeeper('analyze', file, '--json').stdout) as {
      questions: Array<{ p: number }>;
    };
    // Combatant 1d10!o+9, monster 1d10!o+4: counted by hand from the two distributions, 0.35.
    expect(exact.questions[0]!.p).toBeCloseTo(0.35, 12);
    const q = s.questions[0]!.p;
    expect(q.low).toBeLessThanOrEqual(exact.questions[0]!.p);
    expect(q.high).toBeGreaterThanOrEqual(exact.questions[0]!.p);
  });

  it('a tara-corax attack-only fight runs on the compiled Round, with exactly the figures of the engine', () => {
    const file = join(examples, 'simulate/tara-corax-melee.yaml');
    const fast = roundkeeper('simulate', file, '--trials', '150', '--seed', '2', '--json');
    const engine = roundkeeper('simulate', file, '--trials', '150', '--seed', '2', '--json', '--engine');
    expect(fast.code).toBe(0);
    expect(engine.code).toBe(0);
    const f = JSON.parse(fast.stdout) as Record<string, unknown>;
    const e = JSON.parse(engine.stdout) as Record<string, unknown>;
    expect(f.path).toBe('kernel');
    expect(e.path).toBe('engine');
    expect(e.reason).toBe('asked for the engine');
    expect({ ...f, path: 0, reason: 0 }).toEqual({ ...e, path: 0, reason: 0 });
    const text = roundkeeper('simulate', file, '--trials', '100');
    expect(text.stdout).toContain('Simulator: the compiled Tara-Corax round');
    expect(roundkeeper('simulate', duel, '--trials', '20').stdout).toContain(
      'Simulator: the engine, every command decided by the rules (the scenario names events or questions)',
    );
    const two = roundkeeper('simulate', file, '--trials', '150', '--seed', '2', '--json', '--workers', '2');
    expect(two.stdout).toBe(fast.stdout);
  });

  it('--workers 2 gives exactly the figures of one worker (trial seeds come from --seed)', () => {
    const one = roundkeeper('simulate', duel, '--trials', '400', '--seed', '3', '--json', '--workers', '1');
    const two = roundkeeper('simulate', duel, '--trials', '400', '--seed', '3', '--json', '--workers', '2');
    expect(two.code).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    const other = roundkeeper('simulate', duel, '--trials', '400', '--seed', '4', '--json');
    expect(other.stdout).not.toBe(one.stdout);
  });

  it('plays whole encounters with damage and prints a results table with intervals', () => {
    const r = roundkeeper('simulate', join(examples, 'simulate/classic-skirmish.yaml'), '--trials', '200');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/Goblin boss\s+\d\.\d\d ± \d\.\d\d/);
    expect(r.stdout).toContain('the boss falls before Ana does');
    expect(r.stdout).toContain('acts first');
  });

  it('--workers auto (the default) starts alone and brings in every core for a long run, same figures', () => {
    // Long enough that the rest of the run outlasts auto's one second on any machine this runs on (the
    // engine got faster: 2,000 duels were once that long, and now end close to it).
    const one = roundkeeper('simulate', duel, '--trials', '8000', '--seed', '5', '--json', '--workers', '1');
    const auto = roundkeeper('simulate', duel, '--trials', '8000', '--seed', '5', '--json', '--progress');
    expect(auto.code).toBe(0);
    expect(auto.stdout).toBe(one.stdout);
    const cores = Math.min(64, availableParallelism());
    expect(auto.stderr).toMatch(new RegExp(`\\(8000/8000 trials, ${cores} threads?\\)\\n$`));
    // A run over in a blink stays on one thread: the bar never names more.
    const short = roundkeeper('simulate', duel, '--trials', '5', '--progress');
    expect(short.stderr).not.toMatch(/[2-9] threads/);
    expect(roundkeeper('simulate', duel, '--workers', 'many').stderr).toContain(
      '--workers must be auto or a whole number from 1 to 64, not "many"',
    );
  });

  it('draws a progress bar on stderr with --progress (and none when stderr is not a terminal)', () => {
    for (const workers of ['1', '2']) {
      const r = roundkeeper('simulate', duel, '--trials', '600', '--progress', '--workers', workers);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(new RegExp(`\\[#{30}\\] 100% \\(600/600 trials, ${workers} threads?\\)\\n$`));
      expect(r.stdout).not.toContain('#');
    }
    expect(roundkeeper('simulate', duel, '--trials', '50').stderr).toBe('');
  });

  it('--plot writes SVG charts', () => {
    const dir = tmp();
    expect(roundkeeper('simulate', duel, '--trials', '50', '--plot', join(dir, 's.svg')).code).toBe(0);
    expect(roundkeeper('analyze', duel, '--plot', join(dir, 'a.svg')).code).toBe(0);
    for (const f of ['s.svg', 'a.svg']) {
      const svg = readFileSync(join(dir, f), 'utf8');
      expect(svg.startsWith('<svg')).toBe(true);
      expect(svg).toContain('<rect');
    }
  });

  it('analyze prints distributions, the order matrix, full orders and questions', () => {
    const r = roundkeeper('analyze', duel);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('1d20+@initiative');
    expect(r.stdout).toContain('61.75');
    expect(r.stdout).toContain('Most likely orders');
    expect(r.stdout).toContain('Ana rolls 10 or more above the orc');
  });

  it('analyze heads the before-matrix columns by id, so combatants with alike names stay apart', () => {
    const r = roundkeeper('analyze', join(examples, 'simulate/classic-skirmish.yaml'));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/columns by id:\n\s+ana\s+bren\s+cato\s+boss\s+gob1\s+gob2\n/);
  });

  it('agree on group order probabilities: analyze order: [a, b, c] against simulate turn order', () => {
    const file = join(tmp(), 'trio.yaml');
    writeFileSync(
      file,
      [
        'schema: 1',
        'name: Trio',
        'ruleset: classic',
        'combatants:',
        '  - { id: ana, name: Ana, side: pc, stats: { initiative: 3 } }',
        '  - { id: bren, name: Bren, side: pc, stats: { initiative: 1 } }',
        '  - { id: orc, name: Orc, side: npc, stats: { initiative: 1 } }',
        'simulate:',
        '  rounds: 1',
        '  events:',
        '    ana: { type: turn/started, combatant: ana }',
        '    bren: { type: turn/started, combatant: bren }',
        '    orc: { type: turn/started, combatant: orc }',
        '  questions:',
        '    - { name: Ana then Bren then the orc, order: [ana, bren, orc] }',
        '    - { name: the orc before Bren, order: [orc, bren] }',
        'analyze:',
        '  questions:',
        '    - { name: Ana then Bren then the orc, order: [ana, bren, orc] }',
        '    - { name: the orc before Bren, order: [orc, bren] }',
      ].join('\n'),
    );
    const exact = JSON.parse(roundkeeper('analyze', file, '--json').stdout) as {
      questions: Array<{ p: number }>;
      orders: Array<{ order: string[]; p: number }>;
    };
    // Bren and the orc have the same modifier: a tie between them is an even roll-off.
    expect(exact.questions[1]!.p).toBeCloseTo(0.5, 12);
    // The group of all three is a full order: the same figure as the list of full orders.
    const full = exact.orders.find((o) => o.order.join() === 'ana,bren,orc')!;
    expect(exact.questions[0]!.p).toBeCloseTo(full.p, 12);
    const sim = roundkeeper('simulate', file, '--trials', '4000', '--seed', '5', '--json');
    expect(sim.code).toBe(0);
    const s = JSON.parse(sim.stdout) as { questions: Array<{ p: { low: number; high: number } }> };
    exact.questions.forEach((q, i) => {
      expect(s.questions[i]!.p.low).toBeLessThanOrEqual(q.p);
      expect(s.questions[i]!.p.high).toBeGreaterThanOrEqual(q.p);
    });
    expect(roundkeeper('analyze', file).stdout).toContain('Ana then Bren then the orc  [Ana → Bren → Orc]');
    writeFileSync(
      file,
      'schema: 1\nname: x\nruleset: classic\ncombatants: [{ id: a, name: A }]\nanalyze: { questions: [{ name: q, order: [a, b] }] }\n',
    );
    const bad = roundkeeper('analyze', file);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('order names "b", which is not an active combatant');
  });

  it("a named event's rate counts every match, or with nth only each round's nth (at most one a round)", () => {
    const file = join(examples, 'simulate/tara-corax-why-full-round.yaml');
    const r = JSON.parse(roundkeeper('simulate', file, '--trials', '300', '--json').stdout) as {
      combatants: Array<{ id: string; attacks: { mean: number }; turns: { mean: number } }>;
      events: Array<{ name: string; perRound: { mean: number } }>;
    };
    const rate = (name: string) => r.events.find((e) => e.name === name)!.perRound.mean;
    const fighter = r.combatants.find((c) => c.id === 'combatant')!;
    const monster = r.combatants.find((c) => c.id === 'monster')!;
    // The 2nd attack comes every round; the 3rd in the rounds where it is not forfeited.
    expect(rate('second')).toBe(1);
    expect(rate('third')).toBeLessThan(1);
    expect(rate('third')).toBeCloseTo(fighter.attacks.mean - 2, 12);
    // Without nth: every turn the monster starts.
    expect(rate('monster')).toBeCloseTo(monster.turns.mean, 12);
    expect(rate('monster')).toBeGreaterThan(1);
  });

  it('refuses bad flags with exit 1 and bad sections with exit 2, saying how to fix them', () => {
    const badTrials = roundkeeper('simulate', duel, '--trials', 'many');
    expect(badTrials.code).toBe(1);
    expect(badTrials.stderr).toContain('--trials must be a whole number');
    const dir = tmp();
    const file = join(dir, 'bad.yaml');
    writeFileSync(
      file,
      'schema: 1\nname: x\nruleset: classic\ncombatants: [{ id: a, name: A }]\nsimulate: { policies: { zed: [] } }\n',
    );
    const r = roundkeeper('simulate', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('simulate.policies names "zed", which is not a combatant');
    writeFileSync(
      file,
      'schema: 1\nname: x\nruleset: classic\ncombatants: [{ id: a, name: A }]\nsimulate: { rounds: 0 }\n',
    );
    expect(roundkeeper('simulate', file).stderr).toContain('"rounds"');
    writeFileSync(
      file,
      'schema: 1\nname: x\nruleset: classic\ncombatants: [{ id: a, name: A }]\nanalyze: { questions: [{ name: q, all: ["a > b"] }] }\n',
    );
    const q = roundkeeper('analyze', file);
    expect(q.code).toBe(2);
    expect(q.stderr).toContain('"b" is neither a whole number nor a combatant');
    expect(roundkeeper('analyze', 'no/such.yaml').code).toBe(2);
    // An output path that cannot be written is a usage error, with the fix.
    const plot = roundkeeper('simulate', duel, '--trials', '5', '--plot', join(dir, 'no-such-dir', 's.svg'));
    expect(plot.code).toBe(1);
    expect(plot.stderr).toContain('its folder does not exist; create the folder or choose another path');
    const out = roundkeeper('export', duel, '--out', dir);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('it is a folder; give a file name');
  });
});

describe('roundkeeper export / import', () => {
  for (const ext of ['json', 'yaml']) {
    it(`exports run's final encounter as ${ext} that replays to the same state`, () => {
      const source = join(examples, 'classic/ambush.yaml');
      const out = join(tmp(), `ambush.${ext}`);
      const r = roundkeeper('export', source, '--out', out);
      expect(r.code).toBe(0);
      expect(existsSync(out)).toBe(true);
      const before = JSON.parse(roundkeeper('run', source, '--json').stdout) as { state: unknown };
      const after = JSON.parse(roundkeeper('run', out, '--json').stdout) as { ok: boolean; state: unknown };
      expect(after.ok).toBe(true);
      expect(after.state).toEqual(before.state);
    });
  }

  it('import checks a file replays and writes it normalized', () => {
    const out = join(tmp(), 'duel.json');
    const r = roundkeeper('import', duel, '--out', out);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('every expectation met');
    const data = JSON.parse(readFileSync(out, 'utf8')) as { strictDice: boolean; simulate: unknown };
    expect(data.strictDice).toBe(false);
    expect(data.simulate).toBeDefined();
    expect(roundkeeper('import', 'no/such.json').code).toBe(2);
  });

  it('import reads an Improved Initiative export into a classic scenario, what did not map on stderr', () => {
    const out = join(tmp(), 'ambush.yaml');
    const file = join(examples, 'improved-initiative/improved-initiative.json');
    const r = roundkeeper('import', file, '--encounter', 'Goblin ambush', '--out', out);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Improved Initiative → classic, "Goblin ambush"');
    expect(r.stderr).toContain('Not mapped');
    expect(r.stderr).toContain('spell Fire Bolt: classic tracks no spells');
    expect(roundkeeper('run', out).code).toBe(0);
    const missing = roundkeeper('import', file, '--encounter', 'Dragon');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('it has "Goblin ambush"');
  });

  it('every command has --help with examples', () => {
    for (const command of ['run', 'play', 'simulate', 'analyze', 'export', 'import', 'rulesets', 'serve']) {
      const r = roundkeeper(command, '--help');
      expect(r.code).toBe(0);
      const examples = r.stdout.split('Examples:\n')[1] ?? '';
      // Every example is one command line a user can copy.
      const lines = examples.trimEnd().split('\n');
      expect(lines.length).toBeGreaterThanOrEqual(2);
      for (const line of lines)
        expect(line).toMatch(/^ {2}\$ ([A-Z_]+=\S+ )*(roundkeeper|printf|npm start) /);
    }
  });
});

describe('roundkeeper serve', () => {
  it('starts the server, prints its URL, answers with its young generation held at its first size, and stops cleanly on SIGTERM', async () => {
    const { spawn } = await import('node:child_process');
    const dir = mkdtempSync(join(tmpdir(), 'rk-serve-'));
    const proc = spawn(process.execPath, [bin, 'serve', '--port', '0', '--data-dir', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      proc.stdout.on('data', (d) => {
        out += d;
        const m = /listening on (\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      proc.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    });
    // Whatever fails below, the server does not outlive the test.
    onTestFinished(() => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    });
    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);
    // The server's memory setting (design.md, "Memory and latency"): V8's young generation held at its
    // first size, as `npm start` and the server's own main.js hold it. Loading the server and answering
    // requests grow it to 32 MiB otherwise. `kill -USR2` prints the heap's spaces on stderr.
    for (let i = 0; i < 50; i++) await (await fetch(`${url}/api/health`)).text();
    let err = '';
    proc.stderr.on('data', (d) => {
      err += d;
    });
    proc.kill('SIGUSR2');
    const newSpace = await new Promise<number>((resolve) => {
      const read = () => {
        const m = /"new_space":(\d+)/.exec(err);
        if (m) resolve(Number(m[1]));
        else setTimeout(read, 20);
      };
      read();
    });
    expect(newSpace).toBeLessThanOrEqual(4096);
    const code = await new Promise((resolve) => {
      proc.once('exit', resolve);
      proc.kill('SIGTERM');
    });
    expect(code).toBe(0);
  });

  it('refuses a bad --log-level with exit code 1 and the levels it takes (no stack trace)', () => {
    const r = roundkeeper('serve', '--log-level', 'loud', '--port', '0');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'roundkeeper serve: --log-level must be one of fatal, error, warn, info, debug, not "loud".\n(run with --help for usage)\n',
    );
  });

  it('refuses a bad port with exit code 1 and says why', () => {
    const r = roundkeeper('serve', '--port', 'eighty');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--port must be a whole number');
  });
});
