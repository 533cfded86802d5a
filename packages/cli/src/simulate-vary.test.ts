import { isRejection, parseScenario } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it } from 'vitest';
import { CliError } from './load.js';
import { type SimPlan, simulateSectionSchema } from './simulate.js';
import { reportHtml, varySvg, varyTables } from './simulate-report.js';
import { parseVary, runVaried } from './simulate-vary.js';

function duel(): SimPlan {
  const scenario = parseScenario({
    schema: 1,
    name: 'duel',
    ruleset: 'classic',
    options: { rerollEachRound: true },
    combatants: [
      { id: 'ana', name: 'Ana', side: 'pc', hp: 20, stats: { initiative: 0 } },
      { id: 'orc', name: 'Orc', side: 'npc', hp: 20, stats: { initiative: 0 } },
    ],
  });
  if (isRejection(scenario)) throw new Error(scenario.message);
  return {
    scenario,
    sim: simulateSectionSchema.parse({
      rounds: 3,
      events: {
        ana: { type: 'turn/started', combatant: 'ana' },
        orc: { type: 'turn/started', combatant: 'orc' },
      },
      questions: [{ name: 'Ana first', order: ['ana', 'orc'] }],
    }),
  };
}

const first = (r: ReturnType<typeof runVaried>) => r.figures.find((f) => f.name === 'Ana: first')!;

describe('simulate --vary', () => {
  it('reads key=a,b,c as YAML values, and refuses one value or no key', () => {
    expect(parseVary('ana.initiative=0, 2,4')).toEqual({ key: 'ana.initiative', values: [0, 2, 4] });
    expect(parseVary('rerollEachRound=true,false').values).toEqual([true, false]);
    expect(() => parseVary('x=1')).toThrow(CliError);
    expect(() => parseVary('=1,2')).toThrow(/--vary takes/);
  });

  it('uses common random numbers: a value that changes nothing (no one attacks: armour is never read) differs by exactly 0 in every trial', () => {
    const r = runVaried(duel(), rulesets, parseVary('ana.armorClass=10,15'), 200, 3);
    for (const f of r.figures) {
      expect(f.each[0]!.mean, f.name).toBe(f.each[1]!.mean);
      if (Number.isFinite(f.diff[1]!.mean)) {
        expect(f.diff[1]!.low, f.name).toBe(0);
        expect(f.diff[1]!.high, f.name).toBe(0);
      }
    }
  });

  it('a higher initiative modifier acts first more often, and the paired interval is tighter than two runs apart', () => {
    const r = runVaried(duel(), rulesets, parseVary('ana.initiative=0,4'), 600, 5);
    const f = first(r);
    expect(f.diff[1]!.mean).toBeCloseTo(f.each[1]!.mean - f.each[0]!.mean, 12);
    // d20+4 against d20 (ties to the higher modifier): P(first) = 0.5 → 0.69.
    expect(f.diff[1]!.low).toBeGreaterThan(0.12);
    const paired = f.diff[1]!.high - f.diff[1]!.low;
    const apart = Math.hypot(f.each[0]!.high - f.each[0]!.low, f.each[1]!.high - f.each[1]!.low);
    expect(paired).toBeLessThan(apart * 0.8);
    // The question answers the same.
    const q = r.figures.find((x) => x.name === 'question: Ana first')!;
    expect(q.diff[1]!.mean).toBeCloseTo(f.diff[1]!.mean, 12);
  });

  it('varies an option, and refuses an option or combatant the scenario does not have', () => {
    const r = runVaried(duel(), rulesets, parseVary('rerollEachRound=true,false'), 100, 1);
    expect(r.tallies.map((t) => t.trials)).toEqual([100, 100]);
    expect(() => runVaried(duel(), rulesets, parseVary('options.speed=1,2'), 1, 1)).toThrow(
      /classic has no option "speed"/,
    );
    expect(() => runVaried(duel(), rulesets, parseVary('bob.initiative=1,2'), 1, 1)).toThrow(
      /"bob" is not a combatant/,
    );
    expect(() => runVaried(duel(), rulesets, parseVary('ana.initiative=1,lots'), 1, 1)).toThrow(
      /--vary ana.initiative=lots: /,
    );
  });

  it('plots every figure that says something, each value with its interval, and reports it on one page', () => {
    const r = runVaried(duel(), rulesets, parseVary('ana.initiative=0,4'), 50, 1);
    const svg = varySvg(r, 'duel');
    expect(svg).toContain('Ana: first');
    expect(svg).toContain('question: Ana first');
    const html = reportHtml('duel', ['a line'], varyTables(r, 'round'), [svg]);
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<th>ana.initiative=4</th>');
    expect(html).toContain('<svg');
    // Self-contained: nothing fetched.
    expect(html).not.toMatch(/(src|href)=/);
  });
});

describe('simulate --report and per-fight figures', () => {
  it('writes one page with the run’s tables and plot; events per fight as well as per round', async () => {
    const { mkdtempSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const { fileURLToPath } = await import('node:url');
    const { simulateCommand } = await import('./simulate-command.js');
    const file = fileURLToPath(new URL('../../../examples/simulate/classic-skirmish.yaml', import.meta.url));
    const out = join(mkdtempSync(join(tmpdir(), 'rk-report-')), 'r.html');
    const json = JSON.parse(
      await simulateCommand(file, rulesets, { trials: 60, seed: 2, workers: 1, json: true, report: out }),
    ) as { events: Array<{ name: string; perFight: { mean: number } }>; fightRounds: { mean: number } };
    // Played to the end: the boss falls once in (nearly) every fight; a fight lasts a few rounds.
    expect(json.events.find((e) => e.name === 'boss-down')!.perFight.mean).toBeGreaterThan(0.9);
    expect(json.fightRounds.mean).toBeGreaterThan(1);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('<th>per fight</th>');
    expect(html).toContain('the boss falls before Ana does');
    expect(html).toContain('<svg');
  });
});
