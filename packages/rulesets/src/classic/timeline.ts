import {
  type ClockSpec,
  compareInstants,
  type Instant,
  type Rejection,
  reject,
  slotBefore,
  type Timeline,
  type TimelineLane,
  timedLane,
} from '@roundkeeper/engine';
import type { ClassicTypes, State } from './types.js';

/** The round in initiative order: one column per place, a lane per combatant who has one. */
export function timeline(state: State): Timeline {
  const round = Math.max(state.round, 1);
  // Slots: everyone with a place in the order, by key.
  const ordered = state.roster
    .flatMap((id) => {
      const c = state.combatants[id];
      return c?.cs.key ? [{ c, key: c.cs.key }] : [];
    })
    .sort((a, b) => compareInstants({ round: 0, at: a.key }, { round: 0, at: b.key }))
    .map(({ c }) => c);
  const labels: Record<number, string> = {};
  ordered.forEach((c, i) => {
    labels[i + 1] = c.name;
  });
  const currentIndex = state.current ? ordered.findIndex((c) => c.id === state.current) : -1;
  const lanes: TimelineLane[] = ordered.map((c, i) => {
    const done = currentIndex >= 0 ? i < currentIndex : false;
    const upcoming = state.agenda.some((e) => e.combatant === c.id && e.at.round === round);
    const kind = c.cs.delaying ? 'delay' : 'turn';
    const label = `${c.name} (${c.cs.initiative ?? '?'})`;
    return {
      id: c.id,
      label: c.name,
      side: c.side,
      spans: [
        { round, from: i + 1, to: i + 1, kind, label, ...(upcoming && !done ? { planned: true } : {}) },
      ],
      markers: state.current === c.id ? [{ round, at: i + 1, kind: 'turn', label: 'acting' }] : [],
    };
  });
  // Timed events (lair actions): a row of their own, at the slot they come before.
  const keys = ordered.map((c) => c.cs.key ?? []);
  const timed = timedLane(state, (at) => slotBefore(keys, at), round);
  if (timed) lanes.push(timed);
  return {
    axis: { unit: 'turn', from: 1, to: Math.max(ordered.length, 1), labels },
    rounds: [round],
    now: currentIndex >= 0 ? { round, at: currentIndex + 1 } : null,
    lanes,
  };
}

/** The clock counts turns: an instant reads as the round and whose turn it is. */
export const clock: ClockSpec<ClassicTypes> = {
  unit: 'turn',
  describe(state: State, at: Instant): string {
    const entry = state.current ? state.combatants[state.current] : undefined;
    return `Round ${at.round}${entry ? ` · ${entry.name}'s turn` : ''}`;
  },
};

/**
 * A timed event (a lair action) at an initiative count: it comes after everyone with that total, "losing
 * ties" — its place in the order key is after any modifier's.
 */
export function timedAt(_state: State, at: number): { at: number[]; when: string } | Rejection {
  if (at < -100 || at > 200)
    return reject(
      'timed/out-of-range',
      `A timed event sits at an initiative count from -100 to 200, not ${at}.`,
    );
  return { at: [-at, 1000], when: `initiative ${at}, losing ties` };
}
