import { distribution } from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import {
  type Contender,
  orderProbabilities,
  parseCondition,
  positions,
  probAll,
  probBefore,
} from './analyze.js';

const c = (id: string, expression: string, tie = 0): Contender => ({
  id,
  name: id,
  expression,
  tie,
  distribution: distribution(expression),
});

/** Every outcome of small dice, ties broken by priority and then uniformly: the orders' exact odds. */
function bruteForce(list: Contender[]): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (k: number, scores: number[], p: number): void => {
    if (k === list.length) {
      // Group by (score, tie); a group of m is ordered uniformly: m! orders, each 1/m!.
      const idx = list
        .map((_, i) => i)
        .sort((a, b) => scores[b]! - scores[a]! || list[b]!.tie - list[a]!.tie);
      const perms = (arr: number[]): number[][] =>
        arr.length <= 1
          ? [arr]
          : arr.flatMap((x, i) => perms([...arr.slice(0, i), ...arr.slice(i + 1)]).map((r) => [x, ...r]));
      const groups: number[][] = [];
      for (const i of idx) {
        const g = groups.at(-1);
        if (g && scores[g[0]!] === scores[i] && list[g[0]!]!.tie === list[i]!.tie) g.push(i);
        else groups.push([i]);
      }
      let orders: number[][] = [[]];
      for (const g of groups) orders = orders.flatMap((o) => perms(g).map((x) => [...o, ...x]));
      for (const o of orders) {
        const key = o.map((i) => list[i]!.id).join(',');
        out.set(key, (out.get(key) ?? 0) + p / orders.length);
      }
      return;
    }
    for (const [v, q] of list[k]!.distribution.outcomes) walk(k + 1, [...scores, v], p * q);
  };
  walk(0, [], 1);
  return out;
}

describe('analyze: exact initiative order', () => {
  const list = [c('a', '1d4', 1), c('b', '1d4+1', 0), c('c', '1d3+1', 0), c('d', '1d2+2', 1)];

  it('gives every full order the probability a brute-force enumeration gives, ties included', () => {
    const { orders, total } = orderProbabilities(list, false, 1000);
    expect(total).toBeCloseTo(1, 12);
    const brute = bruteForce(list);
    expect(orders.length).toBe([...brute.values()].filter((p) => p > 0).length);
    for (const o of orders) expect(o.p).toBeCloseTo(brute.get(o.order.join(','))!, 12);
  });

  it('places each combatant consistently with the full orders', () => {
    const pos = positions(list, false);
    const { orders } = orderProbabilities(list, false, 1000);
    list.forEach((x, i) => {
      expect(pos[i]!.reduce((s, p) => s + p, 0)).toBeCloseTo(1, 12);
      for (let k = 0; k < list.length; k++) {
        const fromOrders = orders.filter((o) => o.order[k] === x.id).reduce((s, o) => s + o.p, 0);
        expect(pos[i]![k]).toBeCloseTo(fromOrders, 12);
      }
    });
  });

  it('P(a before b) + P(b before a) = 1, and matches the orders', () => {
    const [a, b] = list;
    expect(probBefore(a!, b!, false) + probBefore(b!, a!, false)).toBeCloseTo(1, 12);
    const { orders } = orderProbabilities(list, false, 1000);
    const viaOrders = orders
      .filter((o) => o.order.indexOf('a') < o.order.indexOf('b'))
      .reduce((s, o) => s + o.p, 0);
    expect(probBefore(a!, b!, false)).toBeCloseTo(viaOrders, 12);
  });

  it('lowest-first reverses who acts first', () => {
    const x = c('x', '1d6');
    const y = c('y', '1d6+2');
    expect(probBefore(x, y, true)).toBeCloseTo(1 - probBefore(x, y, false), 12);
  });

  it('answers a question written as comparisons of scores', () => {
    const x = c('x', '1d10');
    const y = c('y', '1d10');
    const ids = new Set(['x', 'y']);
    const between = ['x - 2 > y', 'y > x - 5'].map((t) => parseCondition(t, ids));
    for (const b of between) expect(typeof b).toBe('object');
    // y ∈ (x−5, x−2): x − y ∈ {3, 4}: (7 + 6) of 100 pairs.
    const p = probAll(
      between as Exclude<(typeof between)[number], string>[],
      new Map([
        ['x', x],
        ['y', y],
      ]),
    );
    expect(p).toBeCloseTo(0.13, 12);
    expect(parseCondition('x > z', ids)).toContain('neither a whole number nor a combatant');
    expect(parseCondition('x y', ids)).toContain('no comparison');
  });
});

describe('analyze: a tick timeline, where the lowest tick acts first', () => {
  it("uses tick's own formula: the dice less Initiative, never below 1, the lowest first, ties to the higher Initiative then to the first added", async () => {
    const { analyzeCommand } = await import('./analyze.js');
    const { rulesets } = await import('@roundkeeper/rulesets');
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'rk-analyze-')), 'ticks.yaml');
    const write = (extra = '') =>
      writeFileSync(
        file,
        [
          'schema: 2',
          'name: Ticks',
          'ruleset: tick',
          'combatants:',
          '  - { id: rook, name: Rook, side: pc, stats: { initiative: 2 } }',
          '  - { id: brute, name: Brute, side: npc, stats: { initiative: 2 } }',
          '  - { id: sage, name: Sage, side: pc, stats: { initiative: 0 } }',
          extra,
        ].join('\n'),
      );
    write();
    const r = analyzeCommand(file, rulesets);
    expect(r.order).toBe('lowest-first');
    const rook = r.combatants.find((x) => x.id === 'rook')!;
    // 1d6 − 2, never below 1: a 1, 2 or 3 is tick 1.
    expect(rook.distribution).toEqual([
      [1, expect.closeTo(1 / 2, 12)],
      [2, expect.closeTo(1 / 6, 12)],
      [3, expect.closeTo(1 / 6, 12)],
      [4, expect.closeTo(1 / 6, 12)],
    ]);
    // Rook and Brute alike: a tie (1/3) goes to Rook, added first; the rest is even.
    expect(r.before.rook!.brute).toBeCloseTo(2 / 3, 12);
    // Sage (1d6, ticks 1–6) goes before Rook only on a lower tick: a tie goes to Rook's higher Initiative.
    // P = Σ over Rook's ticks t of P(Rook on t) × P(Sage below t) = (1·1 + 1·2 + 1·3) / 36.
    expect(r.before.sage!.rook).toBeCloseTo(6 / 36, 12);
    // A scenario that says the order wins over the ruleset's.
    write('analyze: { order: highest-first }');
    expect(analyzeCommand(file, rulesets).order).toBe('highest-first');
  });
});

describe('analyze: every ruleset, or why not', () => {
  async function analyzeYaml(lines: string[]) {
    const { analyzeCommand } = await import('./analyze.js');
    const { rulesets } = await import('@roundkeeper/rulesets');
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'rk-analyze-')), 'x.yaml');
    writeFileSync(file, ['schema: 1', 'name: X', ...lines].join('\n'));
    return () => analyzeCommand(file, rulesets);
  }

  it('tara-corax: the Initiative Score derived from the sheet (1d10 exploding once + Initiative, capped at 30) equals the one written out', async () => {
    const sheet = [
      'ruleset: tara-corax',
      'options: { roundMode: full }',
      'combatants:',
      '  - { id: combatant, name: Combatant, side: pc, stats: { initiative: 9, meleeAttacks: 3 } }',
      '  - { id: monster, name: Monster, side: npc, stats: { agility: 28, intellect: 31, armorEvadeModifier: -4 } }',
    ];
    const derived = (await analyzeYaml(sheet))();
    // The monster: (28 + 31) / 2 rounded down = 29, Armor −4 / 2 = −2: 1d10!o + 27, at most 30.
    const written = (
      await analyzeYaml([
        ...sheet,
        "analyze: { initiative: { combatant: '1d10!o+9', monster: '1d10!o+27' }, ties: { combatant: 9000000, monster: 29028031 } }",
      ])
    )();
    const monster = derived.combatants.find((c) => c.id === 'monster')!;
    expect(monster.max).toBe(30);
    // 28, 29 and 30 from the die; 1d10 = 3 … 10 (and every explosion) all land on 30.
    expect(monster.distribution.at(-1)![1]).toBeCloseTo(8 / 10, 12);
    const cap = (d: Array<[number, number]>) => {
      const out = new Map<number, number>();
      for (const [v, p] of d) out.set(Math.min(v, 30), (out.get(Math.min(v, 30)) ?? 0) + p);
      return [...out];
    };
    expect(monster.distribution).toEqual(
      cap(written.combatants.find((c) => c.id === 'monster')!.distribution),
    );
    expect(derived.before.combatant!.monster).toBeGreaterThan(0);
    expect(derived.before.combatant!.monster).toBeLessThan(0.05);
  });

  it('six-second: enumerated when everyone rolls the same check (a tie is a fair coin), refused with who differs otherwise', async () => {
    const same = (
      await analyzeYaml([
        'ruleset: six-second',
        'combatants:',
        '  - { id: a, name: A, side: pc, stats: { dexterity: 1 } }',
        '  - { id: b, name: B, side: npc, stats: { dexterity: 1 } }',
      ])
    )();
    expect(same.before.a!.b).toBeCloseTo(0.5, 12);
    const differ = await analyzeYaml([
      'ruleset: six-second',
      'combatants:',
      '  - { id: a, name: A, side: pc, stats: { dexterity: 1 } }',
      '  - { id: b, name: B, side: npc, stats: { dexterity: 3 } }',
    ]);
    expect(differ).toThrow(/A \(1d20\+1\) and B \(1d20\+3\) roll different checks/);
  });

  it('opend6 and tempo say precisely why their initiative cannot be enumerated', async () => {
    const opend6 = await analyzeYaml([
      'ruleset: opend6',
      'options: { initiativeMethod: perception-per-round }',
      'combatants: [{ id: a, name: A, side: pc }, { id: b, name: B, side: npc }]',
    ]);
    expect(opend6).toThrow(
      /OpenD6's initiative cannot be enumerated: Perception is rolled with the Wild Die/,
    );
    const tempo = await analyzeYaml([
      'ruleset: tempo',
      'combatants: [{ id: a, name: A, side: pc, hp: 5 }, { id: b, name: B, side: npc, hp: 5 }]',
    ]);
    expect(tempo).toThrow(/Tempo rolls no initiative/);
  });
});
