import {
  combatantIn,
  type Rejection,
  reject,
  slotBefore,
  type Timeline,
  type TimelineLane,
  type TimelineMarker,
  timedLane,
} from '@roundkeeper/engine';
import { orderOf } from './initiative.js';
import { numbersHidden } from './redact.js';
import type { SpentEntry, State } from './types.js';

/** What an action cost, by its name; the name alone where the numbers are the GM's (see `redact`). */
function costText(e: SpentEntry, hidden: boolean): string {
  if (hidden) return e.name;
  const parts = [`${e.stamina} st`];
  if (e.defense) parts.push(`${e.defense} def`);
  return `${e.name} (${parts.join(', ')})`;
}

/**
 * The round in turn order: one slot per combatant by initiative; each lane shows the turn with what it spent
 * (stamina, defense), and reactions as markers at the slot of the turn they came in.
 */
export function timeline(state: State): Timeline {
  const round = Math.max(state.round, 1);
  const order = orderOf(state);
  const slot = new Map(order.map((id, i) => [id, i + 1]));
  const labels: Record<number, string> = {};
  order.forEach((id, i) => {
    labels[i + 1] = combatantIn(state, id).name;
  });
  const spent = state.rs.spent.filter((e) => e.round === round);
  const lanes: TimelineLane[] = order.map((id, i) => {
    const c = combatantIn(state, id);
    const at = i + 1;
    const own = spent.filter((e) => e.combatant === id && !e.reaction);
    const upcoming = state.agenda.some(
      (e) => e.kind === 'turn' && e.combatant === id && e.at.round === round,
    );
    const stamina = own.reduce((n, e) => n + e.stamina, 0);
    const defense = own.reduce((n, e) => n + e.defense, 0);
    const hidden = numbersHidden(state, id);
    const costs = own.map((e) => costText(e, hidden)).join(', ');
    const summary = own.length
      ? hidden
        ? costs
        : `${costs} = ${stamina} stamina${defense ? `, ${defense} defense` : ''}`
      : upcoming
        ? `${c.name} (${c.cs.initiative ?? '?'})`
        : `${c.name}: no action`;
    const markers: TimelineMarker[] = spent
      .filter((e) => e.combatant === id && e.reaction)
      .map((e) => ({
        round,
        at: slot.get(e.during ?? '') ?? at,
        kind: 'reaction',
        label: costText(e, hidden),
      }));
    if (state.current === id) markers.push({ round, at, kind: 'turn', label: 'acting' });
    return {
      id,
      label: hidden ? c.name : `${c.name} ${c.cs.stamina}st/${c.cs.defense}def`,
      side: c.side,
      spans: [
        {
          round,
          from: at,
          to: at,
          kind: own.length ? 'action' : 'turn',
          label: summary,
          ...(upcoming ? { planned: true } : {}),
        },
      ],
      markers,
    };
  });
  // Timed events: a row of their own, at the slot they come before.
  const keys = order.map((id) => combatantIn(state, id).cs.key ?? []);
  const timed = timedLane(state, (at) => slotBefore(keys, at), round);
  if (timed) lanes.push(timed);
  const now = state.current ? slot.get(state.current) : undefined;
  return {
    axis: { unit: 'turn', from: 1, to: Math.max(order.length, 1), labels },
    rounds: [round],
    now: now ? { round, at: now } : null,
    lanes,
  };
}

/** A timed event at an initiative total of every round: after everyone with that total ("losing ties"). */
export function timedAt(_state: State, at: number): { at: number[]; when: string } | Rejection {
  if (at < -1000 || at > 1000)
    return reject('timed/out-of-range', `A timed event sits at an initiative from -1000 to 1000, not ${at}.`);
  return { at: [-at, 1_000_000], when: `initiative ${at}, losing ties` };
}
