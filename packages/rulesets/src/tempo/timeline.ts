import {
  combatantIn,
  type Rejection,
  reject,
  type Timeline,
  type TimelineLane,
  timedLane,
} from '@roundkeeper/engine';
import { findAction } from './catalog.js';
import { currentTempo } from './rules.js';
import type { State } from './types.js';

/** Tempo 0–9 lanes, PC rows first, then NPC rows (the order they act in at each tempo). */
export function timeline(state: State): Timeline {
  const round = Math.max(state.round, 1);
  const roster = state.roster.map((id) => combatantIn(state, id));
  const ordered = [...roster.filter((c) => c.side === 'pc'), ...roster.filter((c) => c.side === 'npc')];
  const now = currentTempo(state);
  const lanes: TimelineLane[] = ordered.map((c) => ({
    id: c.id,
    label: c.name,
    side: c.side,
    spans: c.cs.plan.map((p) => {
      const def = findAction(state, c, p.action);
      // A granted action that lists another action "is that action" (003 "Unique Action Restriction").
      const base = def?.data?.as ?? p.action;
      const kind = base === 'move' ? 'move' : base === 'magic' ? 'spell' : 'action';
      const tag = p.slot === 'action' ? '' : ` (${p.slot})`;
      return {
        round,
        from: p.tempo,
        to: p.tempo,
        kind,
        label: `${def?.name ?? p.action}${p.spell ? `: ${p.spell}` : ''}${tag}`,
        ...(p.taken ? {} : { planned: true }),
      };
    }),
    markers: [
      ...c.cs.reactions.map((r) => ({
        round,
        at: r.tempo,
        kind: 'reaction',
        label: `${findAction(state, c, r.reaction)?.name ?? r.reaction}: ${r.trigger}`,
      })),
      ...(state.current === c.id && now !== null ? [{ round, at: now, kind: 'turn', label: 'acting' }] : []),
    ],
  }));
  // Timed events: a row of their own, at their tempo.
  const timed = timedLane(state, (at) => at[0] ?? null, round);
  if (timed) lanes.push(timed);
  return {
    axis: { unit: 'tempo', from: 0, to: 9 },
    rounds: [round],
    now: now === null ? null : { round, at: now },
    lanes,
  };
}

/** A timed event at a tempo of every round ("tempo 5"): after the PCs and then the NPCs at that tempo. */
export function timedAt(_state: State, at: number): { at: number[]; when: string } | Rejection {
  if (at < 0 || at > 9)
    return reject('timed/out-of-range', `A timed event sits at a tempo from 0 to 9, not ${at}.`);
  return { at: [at, 2], when: `tempo ${at}` };
}
