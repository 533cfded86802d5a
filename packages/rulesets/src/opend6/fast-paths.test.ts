import {
  type AgendaEntry,
  type Combatant,
  compareInstants,
  type EncounterLog,
  type EncounterState,
  isRejection,
  newDraft,
} from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encounter, runFrozen } from '../testing/harness.js';
import { purposeTexts } from './actions.js';
import { canAct, checkPoints, ladder, membersOf, orderKey, unitsOf } from './initiative.js';
import { effective, effectiveCodes } from './penalty.js';
import { entryMembers, lostAction, sortByInstant } from './round.js';
import type { Opend6Types } from './types.js';

/**
 * What OpenD6 does to stay fast through the engine (a simulation's commands) is pinned here to what it
 * stands for: the answers remembered per sheet are the ones worked out afresh, the shortcuts give what
 * the general rule gives, and the in-place writes under a trial's draft end in the states a plain fold
 * makes, while the states a log hands out never change.
 */

type S = EncounterState<Opend6Types>;
type C = Combatant<Opend6Types>;

const METHODS = ['first-significant-action', 'perception-per-scene', 'perception-per-round'] as const;
const IDS = ['ana', 'bren', 'w1', 'w2', 'orc', 'lurker'];

/** Two characters, a pack of wolves acting as a group (one of them hidden), and a lone orc. */
function fight(method: number, seed: number, bonus: boolean): EncounterLog {
  const wolf = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    name: id,
    side: 'npc',
    group: 'pack',
    hp: 9,
    stats: { perception: '2D+1', skills: { brawling: '3D' } },
    ...extra,
  });
  return encounter({
    ruleset: 'opend6',
    seed,
    options: { initiativeMethod: METHODS[method % 3], initiativeBonus: bonus },
    combatants: [
      {
        id: 'ana',
        name: 'Ana',
        side: 'pc',
        hp: 20,
        stats: {
          perception: '3D',
          reflexes: '3D+1',
          characterPoints: 4,
          skills: { 'melee combat': '5D', dodge: '4D+1', search: '5D+2' },
        },
      },
      {
        id: 'bren',
        name: 'Bren',
        side: 'pc',
        hp: 20,
        stats: { perception: '2D', skills: { brawling: '1D' } },
      },
      wolf('w1'),
      wolf('w2'),
      { id: 'orc', name: 'Orc', side: 'npc', hp: 12, stats: { skills: { 'melee combat': '3D+2' } } },
      wolf('lurker', { hidden: true }),
    ],
  });
}

/** A step, resolved against the state when it runs. */
type Step = { kind: number; a: number; b: number; c: number };
const stepArb: fc.Arbitrary<Step> = fc.record({
  kind: fc.nat(15),
  a: fc.nat(1000),
  b: fc.nat(1000),
  c: fc.nat(1000),
});

/** Mostly legal play (declare, act, next), with waits, interrupts, incapacitation, defeat and arrivals. */
function commandFor(state: S, step: Step): Record<string, unknown> {
  const { a, b, c } = step;
  const pick = <T>(list: readonly T[], n: number): T | undefined => list[n % Math.max(1, list.length)];
  const anyone = pick(IDS, a)!;
  const actor = pick(state.rs.acting, a) ?? anyone;
  const actions = ['slash', 'punch', 'dodge', 'waiting', 'speak', 'parry', 'lunge'];
  if (state.status === 'setup')
    return { type: 'start', ...(c % 3 === 0 ? { characterPoints: { ana: 1 } } : {}) };
  const me = state.combatants[actor];
  switch (step.kind) {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4:
    case 5:
      // On a turn: declare first, then take the declared actions (sometimes declared with the action).
      if (me?.cs.declared === null && c % 5 !== 0) return { type: 'declare', actor, actions: 1 + (b % 4) };
      if (me?.cs.declared === null)
        return { type: 'act', actor, action: pick(actions, b), declare: 1 + (c % 3), target: pick(IDS, c) };
      return { type: 'act', actor, action: pick(actions, b), target: pick(IDS, c) };
    case 6:
      return { type: 'declare', actor, actions: 1 + (b % 4) };
    case 7:
    case 8:
    case 9:
      return { type: 'next', ...(c % 4 === 0 ? { characterPoints: { [anyone]: 1 + (b % 2) } } : {}) };
    case 10:
      return { type: 'interrupt', actor: anyone, action: pick(actions, b) };
    case 11:
      return c % 2 ? { type: 'resume', actor: anyone } : { type: 'result' };
    case 12:
      return c % 2
        ? { type: 'incapacitate', actor: anyone, condition: 'unconscious' }
        : { type: 'recover', actor: anyone };
    case 13:
      return c % 2 ? { type: 'defeat', combatant: anyone } : { type: 'revive', combatant: anyone };
    case 14:
      return {
        type: 'add-combatant',
        combatant: { name: 'Late wolf', side: 'npc', group: 'pack', hp: 5, stats: {} },
      };
    default:
      return { type: 'roll', actor: anyone, skill: pick(['melee combat', 'dodge', 'Perception'], b) };
  }
}

/** The members of a turn by the general rule: the unit's members now, able and with the round's action. */
function membersByRule(state: S, leader: string, group: string | undefined, round: number): string[] {
  return membersOf(state, leader, group).filter(
    (id) => canAct(state.combatants[id]!) && !lostAction(state, id, round),
  );
}

const play = fc.record({
  method: fc.nat(2),
  seed: fc.integer(),
  bonus: fc.boolean(),
  steps: fc.array(stepArb, { minLength: 30, maxLength: 150 }),
});

describe('opend6: the fast paths give what the rules give', () => {
  it("under a trial's draft, every command ends in the state the plain fold makes", () => {
    fc.assert(
      fc.property(play, ({ method, seed, bonus, steps }) => {
        const plain = fight(method, seed, bonus);
        const drafted = fight(method, seed, bonus);
        const draft = newDraft();
        for (const step of steps) {
          const command = commandFor(plain.state as S, step);
          const p = plain.execute(command);
          const d = drafted.execute(command, { draft });
          expect(isRejection(d)).toBe(isRejection(p));
          if (isRejection(p)) {
            expect(p.code).not.toBe('engine/internal');
            continue;
          }
          expect(JSON.stringify(drafted.state)).toBe(JSON.stringify(plain.state));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('the states a log hands out never change afterwards (nothing frozen to hide a wrong write)', () => {
    fc.assert(
      fc.property(play, ({ method, seed, bonus, steps }) => {
        // The commands come from a frozen run; they are then sent to a log nobody freezes.
        const frozen = fight(method, seed, bonus);
        const commands = steps.map((step) => {
          const command = commandFor(frozen.state as S, step);
          runFrozen(frozen, [command]);
          return command;
        });
        const enc = fight(method, seed, bonus);
        const seen: Array<{ state: EncounterState; copy: string }> = [];
        for (const command of commands) {
          enc.execute(command);
          seen.push({ state: enc.state, copy: JSON.stringify(enc.state) });
        }
        for (const s of seen) expect(JSON.stringify(s.state)).toBe(s.copy);
      }),
      { numRuns: 30 },
    );
  });

  it("a turn's members, a unit's leader and the remembered sheet answers match the general rule", () => {
    fc.assert(
      fc.property(play, ({ method, seed, bonus, steps }) => {
        const enc = fight(method, seed, bonus);
        for (const step of steps) {
          enc.execute(commandFor(enc.state as S, step));
          const state = enc.state as S;
          for (const entry of state.agenda) {
            if (entry.kind !== 'turn' || !entry.combatant) continue;
            const group = typeof entry.data?.group === 'string' ? entry.data.group : undefined;
            expect(entryMembers(state, entry)).toEqual(
              membersByRule(state, entry.combatant, group, entry.at.round),
            );
          }
          if (state.status !== 'running') continue;
          // A Character Point spent by anyone but a unit's leader is refused as the group's roll.
          const leaders = new Set(unitsOf(state).map((u) => u.leader));
          for (const id of state.roster) {
            const c = state.combatants[id]!;
            const refused = checkPoints(state, { characterPoints: { [id]: 1 } }, true);
            if (c.active && !leaders.has(id)) expect(refused?.code).toBe('initiative/group-roll');
            else expect(refused?.code).not.toBe('initiative/group-roll');
          }
        }
      }),
      { numRuns: 30 },
    );
  });
});

describe('opend6: answers remembered per sheet are the ones worked out afresh', () => {
  const code = fc
    .tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: -2, max: 2 }))
    .map(([d, p]) => `${d}D${p === 0 ? '' : p > 0 ? `+${p}` : p}`);
  const sheet = fc.record({
    perception: code,
    reflexes: code,
    goFirst: fc.nat(3),
    specialEquipment: fc.nat(3),
    skills: fc.dictionary(fc.constantFrom('search', 'dodge', 'melee combat', 'brawling'), code),
    attributes: fc.dictionary(fc.constantFrom('Strength', 'Knowledge'), code),
  });
  const combatant = (stats: Record<string, unknown>) =>
    ({
      id: 'x',
      name: 'X',
      cs: {},
      stats: { actionAllotment: 1, initiativeBonusRanks: 0, ...stats },
    }) as unknown as C;

  it("a declaration's effective codes: every code at the penalty, one read-only answer per sheet and penalty", () => {
    fc.assert(
      fc.property(sheet, fc.nat(6), fc.nat(6), (stats, p, q) => {
        const c = combatant(stats);
        const expected = (penalty: number): Record<string, unknown> => ({
          Perception: effective(stats.perception, penalty),
          Reflexes: effective(stats.reflexes, penalty),
          ...Object.fromEntries(Object.entries(stats.attributes).map(([k, v]) => [k, effective(v, penalty)])),
          ...Object.fromEntries(Object.entries(stats.skills).map(([k, v]) => [k, effective(v, penalty)])),
        });
        const codes = effectiveCodes(c, p);
        expect(codes).toEqual(expected(p));
        expect(Object.keys(codes)).toEqual(Object.keys(expected(p)));
        expect(Object.isFrozen(codes)).toBe(true);
        expect(effectiveCodes(c, p)).toBe(codes);
        // Another penalty on the same sheet is its own answer, and so is the same penalty on another sheet.
        expect(effectiveCodes(c, q)).toEqual(expected(q));
        expect(effectiveCodes(c, p)).toBe(codes);
        expect(effectiveCodes(combatant({ ...stats }), p)).not.toBe(codes);
      }),
    );
  });

  it("a sheet's tie-break ladder is the same for the same sheet and each sheet's own", () => {
    fc.assert(
      fc.property(sheet, sheet, (s1, s2) => {
        const a = combatant(s1);
        const b = combatant(s2);
        const first = ladder(a);
        expect(ladder(a)).toBe(first);
        expect(ladder(combatant({ ...s1 }))).toEqual(first);
        expect(ladder(b)).toEqual(ladder(combatant({ ...s2 })));
        expect(first[0]).toBe(-s1.goFirst);
        expect(first[5]).toBe(-s1.specialEquipment);
      }),
    );
  });

  it("a roll's purpose texts name the action, the skill, its code and the penalty, whatever was written before", () => {
    fc.assert(
      fc.property(
        code,
        fc.nat(4),
        fc.constantFrom('melee combat', 'dodge'),
        fc.constantFrom('Slash', 'Parry'),
        (c, penalty, name, purpose) => {
          const e = effective(c, penalty);
          const texts = purposeTexts(e, penalty, name, purpose);
          const shown = penalty > 0 ? `${name} ${e.code} −${penalty}D = ${e.effective}` : `${name} ${e.code}`;
          expect(texts).toEqual({ rolled: `${purpose}: ${shown}`, open: `${purpose} (${name})` });
          expect(purposeTexts(e, penalty, name, purpose)).toBe(texts);
        },
      ),
    );
  });

  it("an order key is the first factor, the sheet's ladder and the roster index", () => {
    fc.assert(
      fc.property(sheet, fc.integer({ min: -40, max: 40 }), fc.nat(20), (stats, first, index) => {
        const c = combatant(stats);
        expect(orderKey(first, c, index)).toEqual([first, ...ladder(c), index]);
      }),
    );
  });
});

describe("opend6: a round's turns sorted by instant", () => {
  it('in the order, and among equal instants the order given, that a stable sort gives', () => {
    const instant = fc.record({
      round: fc.integer({ min: 0, max: 2 }),
      at: fc.array(fc.integer({ min: -3, max: 3 }), { maxLength: 4 }),
    });
    fc.assert(
      fc.property(fc.array(instant, { maxLength: 12 }), (instants) => {
        const entries = instants.map(
          (at, i): AgendaEntry => ({ id: `e${i}`, at, kind: 'turn', label: `e${i}` }),
        );
        const expected = [...entries].sort((a, b) => compareInstants(a.at, b.at)).map((e) => e.id);
        sortByInstant(entries);
        expect(entries.map((e) => e.id)).toEqual(expected);
      }),
    );
  });
});
