import {
  type EncounterLog,
  type EncounterView,
  isRejection,
  roundOrder,
  type Viewer,
  view,
  viewLog,
} from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandFor, fresh, HIDDEN_ID, HIDDEN_NAME, PLAYER, type Step, stepArb } from './play.js';
import { HIDDEN_TURN, type Screen, screenOf } from './screen.js';
import { missingControls } from './words.js';

const viewers: Viewer[] = [{ role: 'gm' }, { role: 'table' }, { role: 'player', combatants: [PLAYER] }];

/** Every text a screen shows, with where it stands (for the failure's message). */
function textsOf(s: Screen): Array<[string, string]> {
  const out: Array<[string, string]> = [
    ['headline', s.headline.clock],
    ['headline', s.headline.actor],
  ];
  for (const n of s.next) out.push(['next', n]);
  for (const r of s.order) out.push(['order', r.name], ['order', r.status ?? '']);
  for (const l of s.log) out.push(['log', l.text]);
  for (const a of s.actions) if (a.reason) out.push(['palette', a.reason]);
  for (const lane of s.timeline?.lanes ?? []) {
    out.push(['timeline', lane.label]);
    for (const span of lane.spans) out.push(['timeline', span.label]);
    for (const m of lane.markers) out.push(['timeline', m.label]);
  }
  for (const p of s.panels) out.push(['panel', p.title], ['panel', p.help ?? '']);
  return out;
}

/** The ids a log ever gave a combatant. */
function idsOf(enc: EncounterLog): string[] {
  const ids = new Set(Object.keys(enc.state.combatants));
  for (const { event } of enc.entries)
    if (event.type === 'combatant/added') ids.add(String((event.combatant as { id: string }).id));
  return [...ids];
}

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Check {
  enc: EncounterLog;
  viewer: Viewer;
  v: EncounterView;
  s: Screen;
}

/** The screen invariants of issue 30 that the screen model keeps on its own. */
function check({ enc, viewer, v, s }: Check): void {
  const state = enc.state;
  const where = `${state.ruleset}, ${viewer.role}, round ${state.round}`;
  const rs = rulesets[state.ruleset]!;
  expect(s.errors, where).toEqual([]);
  const texts = textsOf(s);
  // The order is the engine's round order on the view: everyone the viewer sees, once, and no one else
  // (six-second's redacted order keeps a hidden turn's place as '', which names nobody).
  const ids = s.order.map((r) => r.id);
  expect(ids, where).toEqual(
    roundOrder(
      v,
      viewLog(enc.entries, viewer, state, rs, enc.everHidden),
      rs.present?.steadyOrder?.({ ...v, dice: state.dice }),
    ),
  );
  expect([...ids].sort(), `${where}: the order`).toEqual(v.roster.filter((id) => v.combatants[id]).sort());
  // Names: distinct, and never an id.
  const shown = s.order.map((r) => r.name);
  expect(new Set(shown).size, `${where}: ${shown.join(', ')}`).toBe(shown.length);
  for (const id of idsOf(enc)) {
    if (s.names.byId.get(id) === id) continue;
    const pattern = new RegExp(`(?<![\\w-])${literal(id)}(?![\\w-])`);
    for (const [at, text] of texts)
      expect(pattern.test(text), `${where}: the ${at} shows the id "${id}": ${text}`).toBe(false);
  }
  // Hidden combatants are never named to the table or a player.
  if (viewer.role !== 'gm' && state.combatants[HIDDEN_ID]?.hidden !== false)
    for (const [at, text] of texts)
      expect(text.includes(HIDDEN_NAME), `${where}: the ${at} names the hidden NPC: ${text}`).toBe(false);
  // The headline names the state's actor, or nobody when the viewer may not see them.
  const current = state.status === 'running' ? state.current : null;
  const seen = current && (viewer.role === 'gm' || !state.combatants[current]?.hidden);
  if (current && seen) {
    expect(s.headline.actorId, where).toBe(current);
    expect(`${s.headline.clock} ${s.headline.actor}`, where).toContain(s.names.of(current));
  } else {
    expect(s.headline.actorId, where).toBeNull();
    // A turn the viewer may not see is under way: a neutral text says so, not the phase.
    if (current) expect(s.headline.actor, `${where}: a hidden turn`).toBe(HIDDEN_TURN);
    for (const name of s.names.byId.values())
      expect(s.headline.actor.includes(name), `${where}: ${s.headline.actor}`).toBe(false);
  }
  // An NPC's lane tells the table and the players its name, not the GM's numbers.
  if (viewer.role !== 'gm')
    for (const lane of s.timeline?.lanes ?? [])
      if (lane.side === 'npc' && !(viewer.role === 'player' && viewer.combatants.includes(lane.id)))
        expect(lane.label, `${where}: an NPC's lane`).toBe(s.names.of(lane.id));
  // The timeline shows the current moment.
  const t = s.timeline;
  if (t?.now) expect(t.rounds, `${where}: now in round ${t.now.round}`).toContain(t.now.round);
  // No text tells the viewer to press a control they do not have.
  for (const [at, text] of texts)
    expect(missingControls(text, s.controls), `${where}: the ${at} says: ${text}`).toEqual([]);
  // HP as shown stays within its bounds.
  for (const r of s.order) {
    const m = /^(-?\d+)\/(\d+)/.exec(r.status ?? '');
    if (m) expect(Number(m[1]), `${where}: ${r.name} ${r.status}`).toBeGreaterThanOrEqual(0);
  }
}

/** Tempo's planning phase of a round (its `rs.phase`), when the fight is running. */
const planningOf = (state: EncounterLog['state']) =>
  state.status === 'running' && (state.rs as { phase?: unknown }).phase === 'planning'
    ? `${state.round} ${state.roster.join()}`
    : null;

function playAndCheck(rulesetId: string, seed: number, steps: Step[]): void {
  const enc = fresh(rulesetId, seed);
  const rs = rulesets[rulesetId]!;
  const shown = new Map<Viewer, string[]>();
  for (const step of steps) {
    const planning = planningOf(enc.state);
    const command = commandFor(enc.state, step);
    const r = enc.execute(command);
    if (isRejection(r)) continue;
    // Tempo: a plan made or withdrawn while the round is planned moves no card (the same round, roster).
    const planned =
      planning !== null &&
      planningOf(enc.state) === planning &&
      (command.type === 'plan' || command.type === 'unplan');
    for (const viewer of viewers) {
      const v = view(enc.state, viewer, rs, enc.everHidden);
      const entries = viewLog(enc.entries, viewer, enc.state, rs, enc.everHidden);
      const actor =
        viewer.role === 'gm' ? (v.current ?? v.roster[0]) : viewer.role === 'player' ? PLAYER : null;
      const s = screenOf({
        view: v,
        viewer,
        ruleset: rs,
        entries,
        actor,
        rounds: viewer.role === 'table' ? 1 : 2,
      });
      check({ enc, viewer, v, s });
      const ids = s.order.map((row) => row.id);
      if (planned)
        expect(ids, `${rulesetId}, ${viewer.role}: ${command.type} while planning`).toEqual(
          shown.get(viewer),
        );
      shown.set(viewer, ids);
    }
  }
}

describe('the screen model keeps its invariants after every step of random play', () => {
  for (const id of Object.keys(rulesets)) {
    it(`${id}: every viewer`, () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 1000 }),
          fc.array(stepArb, { minLength: 5, maxLength: 40 }),
          (seed, steps) => playAndCheck(id, seed, steps),
        ),
        { numRuns: 12 },
      );
    });
  }
});
