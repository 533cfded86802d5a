import {
  type AgendaEntry,
  type Combatant,
  combatantOf,
  compareInstants,
  reach,
  schedule,
  scheduleAll,
} from '@roundkeeper/engine';
import { DELAYED_EFFECT, pendingEntry, secondOf } from './clock.js';
import type { SixSecondEventOf, SixSecondFact } from './events.js';
import type { Ctx, PendingEffect, SixSecondTypes, State } from './types.js';

type SixSecondCombatantOf = Combatant<SixSecondTypes>;

/** A turn on the agenda. The entry id is opaque: it must not name a hidden combatant. */
export function turnEntry(ctx: Ctx, c: SixSecondCombatantOf, round: number, slot: number): AgendaEntry {
  const entry: AgendaEntry = {
    id: ctx.newId('turn'),
    at: { round, at: [slot, 0] },
    kind: 'turn',
    combatant: c.id,
    label: `${c.name}'s turn`,
  };
  // Set, not spread from a literal: an entry is made for every turn of every round.
  if (c.hidden) entry.secret = true;
  return entry;
}

/**
 * Reaches a turn entry. A character still delaying when their next turn comes has let the delayed turn
 * lapse (001: "At any time after his skipped turn but before his next turn, he can take his turn").
 */
export function reachTurn(state: State, entry: AgendaEntry, out: SixSecondFact[] = []): SixSecondFact[] {
  const c = entry.combatant ? state.combatants[entry.combatant] : undefined;
  if (c?.cs.delaying) out.push({ type: 'six-second/delay-lapsed', combatant: c.id, turn: c.cs.turnNo });
  for (const e of reach(entry)) out.push(e);
  return out;
}

/** 001: "Every round, each combatant gets a turn", in Initiative order. */
export function startRound(
  ctx: Ctx,
  round: number,
  order: readonly string[] = ctx.state.rs.order,
  out: SixSecondFact[] = [],
): SixSecondFact[] {
  const { state } = ctx;
  out.push({ type: 'round/started', round });
  const entries: AgendaEntry[] = [];
  for (let i = 0; i < order.length; i++) {
    const c = state.combatants[order[i]!];
    if (c?.active) entries.push(turnEntry(ctx, c, round, i + 1));
  }
  for (const e of scheduleAll(entries)) out.push(e);
  const first = entries[0];
  if (first) reachTurn(state, first, out);
  return out;
}

/**
 * Ends the current turn. 001: "On your turn, you have six in-game seconds": seconds not spent still
 * pass (delayed effects due in them happen now). Then an interrupted turn resumes (001: "the other
 * character finishes"), or the next turn in the order starts, or the next round.
 */
export function endTurn(ctx: Ctx, elapse: boolean, out: SixSecondFact[] = []): SixSecondFact[] {
  const { state } = ctx;
  const id = state.current;
  const c = id ? state.combatants[id] : undefined;
  if (c && id) {
    const n = state.options.turnSeconds;
    if (elapse && c.cs.base) {
      const unused = Math.max(0, n - c.cs.secondsUsed);
      out.push({ type: 'six-second/turn-closed', combatant: id, unused });
      if (unused > 0) out.push({ type: 'clock/advanced', to: secondOf(state.round, c.cs.base, n) });
    }
    out.push({ type: 'turn/ended', combatant: id });
  }
  // "… and the other character finishes": the innermost paused turn whose character is still in the fight.
  // One defeated or removed meanwhile has no turn to finish; it is dropped from the stack.
  const interrupted = state.rs.interrupted;
  if (interrupted.length > 0) {
    let resuming: string | undefined;
    for (let i = interrupted.length - 1; i >= 0 && resuming === undefined; i--) {
      if (state.combatants[interrupted[i]!]?.active) resuming = interrupted[i];
    }
    out.push({ type: 'six-second/turn-resumed', combatant: resuming ?? null });
    if (resuming) return out;
  }
  const round = state.round;
  const next = state.agenda.find((e) => e.kind === 'turn' && e.at.round === round);
  if (next) return reachTurn(state, next, out);
  out.push({ type: 'round/ended', round });
  return startRound(ctx, round + 1, state.rs.order, out);
}

/**
 * The second right after which a delay ends. 001: "If a delay makes the action happen after the end of
 * your turn, it happens on your next turn" — counted in the acting character's own turn seconds.
 */
export function dueOf(
  turn: number,
  second: number,
  delay: number,
  turnSeconds: number,
): PendingEffect['due'] {
  const total = second + delay;
  if (total <= turnSeconds) return { turn, second: total };
  const beyond = total - turnSeconds;
  return { turn: turn + Math.ceil(beyond / turnSeconds), second: ((beyond - 1) % turnSeconds) + 1 };
}

/**
 * The clock moving through seconds `from`..`to` of the combatant's turn: it stops at every second a
 * delayed effect is due (the effect happens "right after" that second), then at `to`.
 */
export function spendSeconds(
  state: State,
  id: string,
  from: number,
  to: number,
  out: SixSecondFact[] = [],
): SixSecondFact[] {
  const c = combatantOf(state, id);
  const base = c?.cs.base;
  if (!c || !base || to < from) return out;
  // Most actions pass no pending effect's second: nothing to collect or sort then.
  if (c.cs.pending.length > 0) {
    const stops = new Set<number>();
    for (const p of c.cs.pending) {
      if (p.due.turn === c.cs.turnNo && p.due.second >= from && p.due.second < to) stops.add(p.due.second);
    }
    for (const s of [...stops].sort((a, b) => a - b)) {
      out.push({ type: 'clock/advanced', to: secondOf(state.round, base, s) });
    }
  }
  out.push({ type: 'clock/advanced', to: secondOf(state.round, base, to) });
  return out;
}

/**
 * An action completes at second `second` of the combatant's turn: with a delay, its effect is schedule
 * (001: "the spell comes into effect two seconds after casting"); with a zero delay it happens at once.
 */
export function complete(
  ctx: Ctx,
  c: SixSecondCombatantOf,
  action: string,
  second: number,
  delay: number | null,
  name: string,
  out: SixSecondFact[] = [],
): SixSecondFact[] {
  if (delay === null) return out;
  const { state } = ctx;
  const id = c.id;
  const due = dueOf(c.cs.turnNo, second, delay, state.options.turnSeconds);
  const effect: PendingEffect = { id: ctx.newId('delay'), name, action, delay, due };
  if (delay === 0) {
    out.push({
      type: 'six-second/effect-occurred',
      combatant: id,
      effect: effect.id,
      name,
      action,
      round: state.round,
      turn: due.turn,
      second: due.second,
    });
    return out;
  }
  const started: SixSecondEventOf<'six-second/delay-started'> = {
    type: 'six-second/delay-started',
    combatant: id,
    effect,
  };
  out.push(started, schedule(pendingEntry(state, c, effect)));
  return out;
}

/** Re-places a combatant's pending effects where they are now projected to happen (after its turn changed). */
export function reproject(state: State, id: string, out: SixSecondFact[] = []): SixSecondFact[] {
  const c = combatantOf(state, id);
  if (!c) return out;
  for (const p of c.cs.pending) {
    const entry = pendingEntry(state, c, p);
    const existing = state.agenda.find((e) => e.id === p.id);
    if (!existing || compareInstants(existing.at, entry.at) !== 0) out.push(schedule(entry));
  }
  return out;
}

/** Delayed effects whose moment the clock has reached: they happen now, in clock order. */
export function dueEffects(state: State, out: SixSecondFact[] = []): SixSecondFact[] {
  const now = state.now;
  if (!now) return out;
  for (const e of state.agenda) {
    if (e.kind !== DELAYED_EFFECT || !e.combatant || compareInstants(e.at, now) > 0) continue;
    const c = state.combatants[e.combatant];
    const p = c?.cs.pending.find((x) => x.id === e.id);
    out.push({ type: 'agenda/removed', entry: e.id, reason: 'reached' });
    if (!c || !p) continue;
    const lapsed = p.due.turn < c.cs.turnNo || (p.due.turn === c.cs.turnNo && !c.cs.base);
    const occurred: SixSecondEventOf<'six-second/effect-occurred'> = {
      type: 'six-second/effect-occurred',
      combatant: c.id,
      effect: p.id,
      name: p.name,
      action: p.action,
      round: now.round,
      turn: p.due.turn,
      second: p.due.second,
    };
    if (lapsed) occurred.lapsed = true;
    out.push(occurred);
  }
  return out;
}

/**
 * The next round's order: the Initiative order rolled once, on `start` ("every round each character in the
 * fight gets one turn, in Initiative order"), as `startRound` schedules it — those still in the fight.
 */
export function nextRoundOrder(state: State): string[] {
  return state.rs.order.filter((id) => state.combatants[id]?.active);
}
