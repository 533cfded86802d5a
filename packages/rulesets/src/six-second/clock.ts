import {
  type AgendaEntry,
  type Combatant,
  compareInstants,
  type Instant,
  type JsonObject,
} from '@roundkeeper/engine';
import type { PendingEffect, SixSecondCombatant, SixSecondTypes, State } from './types.js';

/** The agenda kind of a delayed effect. */
export const DELAYED_EFFECT = 'six-second/delayed-effect';

type SixSecondCombatantOf = Combatant<SixSecondTypes>;

/*
 * The clock. An instant is {round, at: [turnSlot, second]}: the turn slot is the place in the Initiative
 * order (1 = highest), the second counts the seconds of that turn already spent (0 = the turn's start).
 * A delayed turn taken during someone else's turn, between their actions, lives at
 * [...thatMoment, 1, second]: a longer tuple sorts right after its prefix and before that turn's next second.
 */

/** The turn slot of a combatant: its place in the Initiative order, from 1. */
export function slotOf(state: State, id: string): number {
  return state.rs.order.indexOf(id) + 1;
}

/** The instant of second `second` of the turn whose prefix is `base`. */
export function secondOf(round: number, base: readonly number[], second: number): Instant {
  return { round, at: [...base, second] };
}

export function secondsLeft(state: State, c: SixSecondCombatant): number {
  return Math.max(0, state.options.turnSeconds - c.secondsUsed);
}

/** Whether this combatant's turn is running now, or paused while a delayed turn interrupts it. */
export function inTurn(state: State, id: string): boolean {
  return state.current === id || state.rs.interrupted.includes(id);
}

/** The round of the combatant's next turn in the normal order (its turn entry, or next round's). */
export function nextNormalRound(state: State, id: string): number {
  const entry = state.agenda.find((e) => e.kind === 'turn' && e.combatant === id);
  return entry ? entry.at.round : state.round + 1;
}

/** When the turn of a delayed effect's due second will be, as far as can be known now. */
export function projectDue(state: State, c: SixSecondCombatantOf, due: PendingEffect['due']): Instant {
  const id = c.id;
  const slot = slotOf(state, id);
  const next = nextNormalRound(state, id);
  if (due.turn <= c.cs.turnNo) {
    // The turn in progress: right at its matching second.
    if (inTurn(state, id) && c.cs.base && !c.cs.delaying) return secondOf(state.round, c.cs.base, due.second);
    // A skipped turn not yet taken: if it lapses, its seconds have passed when the next turn comes.
    return { round: next, at: [slot, 0] };
  }
  return { round: next + (due.turn - c.cs.turnNo - 1), at: [slot, due.second] };
}

/** The agenda entry of a pending delayed effect, placed where it is projected to happen. */
export function pendingEntry(state: State, c: SixSecondCombatantOf, p: PendingEffect): AgendaEntry {
  const data: JsonObject = { effect: p.id, due: p.due, delay: p.delay, action: p.action };
  const at = projectDue(state, c, p.due);
  const label = `${p.name} (${c.name}'s delay)`;
  // Two literals, not a spread one: `secret` keeps its place before `data`.
  return c.hidden
    ? { id: p.id, at, kind: DELAYED_EFFECT, combatant: c.id, label, secret: true, data }
    : { id: p.id, at, kind: DELAYED_EFFECT, combatant: c.id, label, data };
}

/** Seconds of the character's own turns still to pass before a pending effect happens. */
export function remainingSeconds(state: State, combatant: SixSecondCombatantOf, p: PendingEffect): number {
  const c = combatant.cs;
  // secondsUsed is what is gone from the character's latest turn: 0 of a skipped one, all of a finished one.
  return Math.max(0, (p.due.turn - c.turnNo) * state.options.turnSeconds + p.due.second - c.secondsUsed);
}

/** Where a pending effect will happen, in words. */
export function describeDue(c: SixSecondCombatantOf, p: PendingEffect): string {
  const ahead = p.due.turn - c.cs.turnNo;
  const which =
    ahead <= 0
      ? 'turn'
      : ahead === 1
        ? 'next turn'
        : ahead === 2
          ? 'turn after next'
          : `turn ${ahead} turns from now`;
  return `right after second ${p.due.second} of ${c.name}'s ${which}`;
}

/** "Round 2 · second 3 of Ana's turn"; a delayed turn reads as taken during the other's turn. */
export function describeInstant(state: State, at: Instant): string {
  // A place the viewer may not see (a hidden combatant's, kept empty by `redact`) is named by nobody.
  const name = (slot: number | undefined): string | undefined => {
    const id = slot === undefined ? undefined : state.rs.order[slot - 1];
    return id ? (state.combatants[id]?.name ?? id) : undefined;
  };
  const t = at.at;
  const who = name(t[0]);
  if (t.length <= 2) {
    const s = t[1] ?? 0;
    if (!who) return `Round ${at.round}${s === 0 ? '' : ` · second ${s} of a turn`}`;
    return `Round ${at.round} · ${s === 0 ? 'start' : `second ${s}`} of ${who}'s turn`;
  }
  const second = t.at(-1) ?? 0;
  // The delayed turn under way is one the viewer may not see (the view says so): its moment names nobody,
  // not even the turn it interrupts, as any hidden turn's (the page's headline says someone unseen acts).
  if (
    'unseenTurn' in state &&
    state.unseenTurn === true &&
    state.now != null &&
    compareInstants(at, state.now) === 0
  )
    return `Round ${at.round}`;
  const after = who ? ` taken after second ${t[1] ?? 0} of ${who}'s turn` : '';
  return `Round ${at.round} · second ${second} of a delayed turn${after}`;
}

/** Renumbers slots at or after `from` by one: a late arrival took a place in the order (see initiative.ts). */
export function shiftTuple(t: readonly number[], from: number): number[] {
  const slot = t[0];
  return slot !== undefined && slot >= from ? [slot + 1, ...t.slice(1)] : [...t];
}

/** An instant after a late arrival took slot `from` (the fold's and the log's `clock.renumbers`). */
export function shiftInstant(i: Instant, from: number): Instant {
  return { round: i.round, at: shiftTuple(i.at, from) };
}
