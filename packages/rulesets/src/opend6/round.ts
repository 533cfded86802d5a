import {
  type AgendaEntry,
  combatantIn,
  compareInstants,
  type Instant,
  type JsonObject,
  scheduleAll,
  unschedule,
} from '@roundkeeper/engine';
import type { AnyEvent, Opend6EventOf } from './events.js';
import { canAct, membersOf, rollInitiative, unitsOf } from './initiative.js';

import type { Ctx, State } from './types.js';

/** A round's turn entry: one per character or NPC group, at the unit's order key. */
export function turnEntry(
  ctx: Ctx,
  leader: string,
  round: number,
  key: number[],
  data: JsonObject = {},
): AgendaEntry {
  const c = combatantIn(ctx.state, leader);
  const group = c.side === 'npc' && c.group ? c.group : undefined;
  const entry: AgendaEntry = {
    id: ctx.newId('turn'),
    at: { round, at: key },
    kind: 'turn',
    combatant: leader,
    label: group ? `${group} (group) acts` : `${c.name}'s turn`,
  };
  if (c.hidden) entry.secret = true;
  entry.data = group ? { ...data, group } : data;
  return entry;
}

function groupOf(entry: AgendaEntry): string | undefined {
  return typeof entry.data?.group === 'string' ? entry.data.group : undefined;
}

/** Whose turn a turn entry is: the character, or the group's leader (every turn entry names one). */
export function leaderOf(entry: AgendaEntry): string {
  if (entry.combatant === undefined) throw new Error(`OpenD6: the turn entry "${entry.label}" names nobody.`);
  return entry.combatant;
}

/**
 * Whether the character lost his action for `round` — 002: "a character rendered unconscious, immobile,
 * or otherwise unable to act loses his action for that round if he hasn't taken it already". Recovering
 * before his turn does not give it back, in a group as alone.
 */
export function lostAction(state: State, id: string, round: number): boolean {
  for (const h of state.rs.happened)
    if (h.round === round && h.combatant === id && h.kind === 'lost') return true;
  return false;
}

/** Whether `id` acts in a turn of `round` reached now: able to act, and the round's action not lost. */
function actsIn(state: State, id: string, round: number): boolean {
  return canAct(combatantIn(state, id)) && !lostAction(state, id, round);
}

/** Who acts when an entry is reached: the character, or the group's members who can still act. */
export function entryMembers(state: State, entry: AgendaEntry): string[] {
  const leader = leaderOf(entry);
  const group = groupOf(entry);
  const round = entry.at.round;
  if (!group) return actsIn(state, leader, round) ? [leader] : [];
  return membersOf(state, leader, group).filter((id) => actsIn(state, id, round));
}

/** A lost action on the timeline, at the turn it was lost from. */
export function lostHappening(
  round: number,
  at: number[],
  combatant: string,
): Opend6EventOf<'opend6/happened'> {
  return {
    type: 'opend6/happened',
    happening: { round, at, combatant, kind: 'lost', label: 'loses the action' },
  };
}

/** Reaching a turn: the clock moves to it and every member's turn starts (a group acts together). */
export function reachTurn(
  state: State,
  entry: AgendaEntry,
  members: string[] = entryMembers(state, entry),
): AnyEvent[] {
  // The leader's turn/started comes last, so the engine's `current` names the leader.
  let ordered = members;
  if (members.length > 1) {
    ordered = [];
    for (const m of members) if (m !== entry.combatant) ordered.push(m);
    for (const m of members) if (m === entry.combatant) ordered.push(m);
  }
  const out: AnyEvent[] = [
    { type: 'agenda/removed', entry: entry.id, reason: 'reached' },
    { type: 'clock/advanced', to: entry.at },
  ];
  for (const id of ordered) out.push({ type: 'turn/started', combatant: id });
  out.push({ type: 'opend6/turn', members: ordered, at: entry.at.at, resumed: entry.data?.resumed === true });
  return out;
}

/**
 * The next turn this round, skipping turns whose characters can no longer act — 002: "a character
 * rendered unconscious, immobile, or otherwise unable to act loses his action for that round if he
 * hasn't taken it already".
 */
function nextTurn(state: State): { lost: AnyEvent[]; next?: AgendaEntry; members?: string[] } {
  const lost: AnyEvent[] = [];
  for (const entry of state.agenda) {
    if (entry.kind !== 'turn' || entry.at.round !== state.round) continue;
    const members = entryMembers(state, entry);
    if (members.length > 0) return { lost, next: entry, members };
    lost.push(unschedule(entry.id, 'unable to act'), {
      type: 'opend6/turn-lost',
      combatant: leaderOf(entry),
      reason: 'unable to act',
    });
  }
  return { lost };
}

/**
 * Schedules a round once its initiative is known (the draft state has every order key): the turns in
 * order, the round's slots for the timeline, then the first turn.
 */
export function beginRound(ctx: Ctx, round: number): AnyEvent[] {
  const { state } = ctx;
  const events: AnyEvent[] = [
    { type: 'round/started', round },
    { type: 'opend6/round-reset', round },
  ];
  const entries: AgendaEntry[] = [];
  for (const unit of unitsOf(state)) {
    const c = combatantIn(state, unit.leader);
    const able =
      unit.members.length === 1
        ? canAct(c)
          ? unit.members
          : []
        : unit.members.filter((id) => canAct(combatantIn(state, id)));
    // Unable when initiative was rolled (Method 2): no place yet; it is rolled when he recovers.
    if (!c.cs.orderKey) {
      if (able.length === 0)
        events.push({ type: 'opend6/turn-lost', combatant: unit.leader, reason: 'unable to act' });
      continue;
    }
    if (able.length === 0) {
      events.push({ type: 'opend6/turn-lost', combatant: unit.leader, reason: 'unable to act' });
      continue;
    }
    // A group acts without its members who are unable as the round begins, even if they recover before
    // the group's turn.
    if (able.length < unit.members.length)
      for (const id of unit.members.filter((m) => !able.includes(m))) {
        events.push(
          { type: 'opend6/turn-lost', combatant: id, reason: 'unable to act' },
          lostHappening(round, c.cs.orderKey, id),
        );
      }
    entries.push(turnEntry(ctx, unit.leader, round, c.cs.orderKey));
  }
  sortByInstant(entries);
  events.push(...scheduleAll(entries));
  events.push({
    type: 'opend6/slots',
    round,
    slots: entries.map((e) => ({
      round,
      at: e.at.at,
      members: membersOf(state, leaderOf(e), groupOf(e)),
      label: e.label,
    })),
  });
  return events;
}

/**
 * Sorts a round's few turn entries by instant, in place and stably (an insertion sort: a round has a
 * handful of units, for which `Array.prototype.sort` with a comparator costs more than the comparing).
 */
export function sortByInstant(entries: AgendaEntry[]): void {
  for (let i = 1; i < entries.length; i++) {
    const entry = entries[i]!;
    let j = i;
    while (j > 0 && compareInstants(entries[j - 1]!.at, entry.at) > 0) {
      entries[j] = entries[j - 1]!;
      j--;
    }
    entries[j] = entry;
  }
}

/** After the round's turns are scheduled: reach the first one. */
export function reachFirst(state: State): AnyEvent[] {
  const { lost, next, members } = nextTurn(state);
  if (next) for (const e of reachTurn(state, next, members)) lost.push(e);
  return lost;
}

/**
 * `next`: the acting turn ends; the next turn in the agenda starts, or the round ends (unused declared
 * actions are lost) and the next begins — rolling Perception again under Method 3.
 */
export function advance(ctx: Ctx, characterPoints: Record<string, number>): AnyEvent[] {
  const { state } = ctx;
  const events: AnyEvent[] = [];
  for (const id of state.rs.acting) events.push({ type: 'turn/ended', combatant: id });
  const { lost, next, members } = nextTurn(state);
  for (const e of lost) events.push(e);
  if (next) {
    for (const e of reachTurn(state, next, members)) events.push(e);
    return events;
  }
  // 002: "Any actions calculated into the multi-action penalty but that the character did not use by the
  // end of the round are lost."
  for (const id of state.roster) {
    const c = combatantIn(state, id);
    if (c.cs.declared !== null && c.cs.used < c.cs.declared) {
      events.push({
        type: 'opend6/actions-lost',
        combatant: id,
        count: c.cs.declared - c.cs.used,
        reason: 'round end',
      });
    }
  }
  events.push({ type: 'round/ended', round: state.round });
  if (state.options.initiativeMethod === 'perception-per-round')
    for (const e of rollAll(ctx, characterPoints)) events.push(e);
  events.push({ type: 'opend6/round-begins', round: state.round + 1 });
  return events;
}

/** Methods 2 and 3: one Perception roll per character or NPC group. */
export function rollAll(ctx: Ctx, characterPoints: Record<string, number>): AnyEvent[] {
  const { state } = ctx;
  const events: AnyEvent[] = [];
  for (const unit of unitsOf(state)) {
    // Nobody able to act in it: it loses its action anyway, so nothing is rolled.
    let able = false;
    let points = 0;
    for (const id of unit.members) {
      if (!able && canAct(combatantIn(state, id))) able = true;
      points += characterPoints[id] ?? 0;
    }
    if (!able) continue;
    for (const e of rollInitiative(ctx, unit, points, state.roster.indexOf(unit.leader))) events.push(e);
  }
  return events;
}

/** The instant just after now: an interrupt appends 0, a resumed turn 1 (so interrupts come first). */
export function justAfter(state: State, suffix: 0 | 1): Instant {
  const now = state.now ?? { round: state.round, at: [] };
  return { round: now.round, at: [...now.at, suffix] };
}

/**
 * The next round's order (Methods 1 and 2: the same order every round, `beginRound` placing each unit — a
 * character, or an NPC group acting together — by the key it holds): null under Method 3 (Perception
 * rolled every round), and while someone's place is open (unable now: he may act as the round begins, or
 * lose the turn, or be rolled for when he recovers; or with no place yet).
 */
export function nextRoundOrder(state: State): string[] | null {
  if (state.options.initiativeMethod === 'perception-per-round') return null;
  const placed: { key: number[]; members: string[] }[] = [];
  for (const unit of unitsOf(state)) {
    const key = combatantIn(state, unit.leader).cs.orderKey;
    if (!key || unit.members.some((id) => !canAct(combatantIn(state, id)))) return null;
    placed.push({ key, members: unit.members });
  }
  return placed
    .sort((a, b) => compareInstants({ round: 0, at: a.key }, { round: 0, at: b.key }))
    .flatMap((p) => p.members);
}
