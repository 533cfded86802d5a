import {
  type ClockSpec,
  combatantIn,
  compareInstants,
  compareTuples,
  type Instant,
  type Rejection,
  reject,
  type Timeline,
  type TimelineLane,
  type TimelineMarker,
  timedLane,
} from '@roundkeeper/engine';

import type { Happening, Opend6Types, Slot, State } from './types.js';

const MARKER: Record<Happening['kind'], string> = {
  action: 'attack',
  wait: 'wait',
  interrupt: 'reaction',
  'move-up': 'reaction',
  lost: 'forfeit',
  free: 'effect',
};

/** The slot (1-based, in the round's turn order) an instant falls in: an interrupt sits in the turn it interrupts. */
function position(slots: Slot[], at: number[]): number {
  let p = 0;
  for (const s of slots) if (compareTuples(s.at, at) <= 0) p++;
  return Math.max(p, 1);
}

/**
 * The round in turn order: one column per turn (a resumed turn after waiting gets its own column), a
 * lane per character with its turn, its actions, waits, interrupts and lost actions.
 */
export function timeline(state: State): Timeline {
  const round = Math.max(state.round, 1);
  const rounds = [round - 1, round].filter((r) => r >= 1 && state.rs.slots.some((s) => s.round === r));
  if (rounds.length === 0) rounds.push(round);
  const slotsOf = (r: number) =>
    state.rs.slots.filter((s) => s.round === r).sort((a, b) => compareTuples(a.at, b.at));
  const width = Math.max(1, ...rounds.map((r) => slotsOf(r).length));
  const labels: Record<number, string> = {};
  slotsOf(round).forEach((s, i) => {
    labels[i + 1] = s.label;
  });
  const lanes: TimelineLane[] = [];
  for (const id of state.roster) {
    const c = combatantIn(state, id);
    const lane: TimelineLane = { id, label: c.name, side: c.side, spans: [], markers: [] };
    for (const r of rounds) {
      const slots = slotsOf(r);
      slots.forEach((s, i) => {
        if (!s.members.includes(id)) return;
        const planned = state.agenda.some(
          (e) => e.kind === 'turn' && e.at.round === r && compareTuples(e.at.at, s.at) === 0,
        );
        lane.spans.push({
          round: r,
          from: i + 1,
          to: i + 1,
          kind: 'turn',
          // The lane names the character and the column whose turn it is: the bar says which kind of turn.
          label: s.resumed ? 'after waiting' : s.members.length > 1 ? 'group turn' : 'turn',
          ...(planned ? { planned: true } : {}),
        });
      });
      for (const h of state.rs.happened) {
        if (h.round !== r || h.combatant !== id) continue;
        const m: TimelineMarker = {
          round: r,
          at: position(slots, h.at),
          kind: MARKER[h.kind],
          label: h.label,
        };
        lane.markers.push(m);
      }
    }
    if (state.rs.acting.includes(id) && state.now) {
      lane.markers.push({
        round: state.now.round,
        at: position(slotsOf(state.now.round), state.now.at),
        kind: 'turn',
        label: 'acting',
      });
    }
    if (lane.spans.length > 0 || lane.markers.length > 0) lanes.push(lane);
  }
  // Timed events: a row of their own, at the slot they come before.
  const timed = timedLane(
    state,
    (at) => {
      const slots = slotsOf(round);
      return Math.min(slots.filter((x) => compareTuples(x.at, at) < 0).length + 1, width);
    },
    round,
  );
  if (timed) lanes.push(timed);
  const now = state.now
    ? { round: state.now.round, at: position(slotsOf(state.now.round), state.now.at) }
    : null;
  return { axis: { unit: 'turn', from: 1, to: width, labels }, rounds, now, lanes };
}

/** The clock counts turns in the round's order: an instant reads as the turn it falls in. */
export const clock: ClockSpec<Opend6Types> = {
  unit: 'turn',
  describe(state: State, at: Instant): string {
    const slot = [...state.rs.slots]
      .reverse()
      .find(
        (s) => s.round === at.round && compareInstants({ round: 0, at: s.at }, { round: 0, at: at.at }) <= 0,
      );
    // The slot's own turn, or an interrupt inside it (its instant extends the slot's). An instant past the
    // slot found is in a turn the viewer's state leaves out (a hidden combatant's): it names nobody.
    const inside = slot?.at.every((v, i) => at.at[i] === v);
    return `Round ${at.round}${slot && inside ? ` · ${slot.label}` : ''}`;
  },
};

/**
 * A timed event at an initiative total of every round, after everyone on that total ("losing ties"):
 * under the Perception methods, whose order is by total. Under the first significant action the order is
 * by who acts first, not by a number: there is no moment to name.
 */
export function timedAt(state: State, at: number): { at: number[]; when: string } | Rejection {
  if (state.options.initiativeMethod === 'first-significant-action')
    return reject(
      'timed/no-moment',
      'Under the first significant action the order is by who acts first, not by an initiative total: there is no moment for a timed event. Use a Perception method, or add a note.',
    );
  if (at < -1000 || at > 1000)
    return reject(
      'timed/out-of-range',
      `A timed event sits at an initiative total from -1000 to 1000, not ${at}.`,
    );
  return { at: [-at, 1_000_000], when: `initiative ${at}, losing ties` };
}
