import type { EngineEvent } from '@roundkeeper/engine';
import { describeDue, remainingSeconds } from './clock.js';
import type { PendingEffect, State } from './types.js';

/** Log lines for this ruleset's events, in the GM's words. `state` is the state the event led to. */
export function describeEvent(event: EngineEvent, state: State): string | null {
  const name = (id: unknown) => (typeof id === 'string' ? (state.combatants[id]?.name ?? id) : '?');
  const who = name(event.combatant);
  const n = state.options.turnSeconds;
  switch (event.type) {
    case 'six-second/initiative':
      return `${who}'s Initiative is ${String(event.total)}${event.rolled ? '' : ' (rolled at the table)'}.`;
    case 'six-second/roll-off': {
      const ids = event.combatants as string[];
      const totals = event.totals as number[];
      return `Tie: ${ids.map(name).join(' and ')} roll Initiative again (${ids.map((id, i) => `${name(id)} ${totals[i]}`).join(', ')}).`;
    }
    case 'six-second/roll-off-abandoned':
      return `${(event.combatants as string[]).map(name).join(' and ')} kept tying; they keep the roster order (the GM may set it by hand).`;
    case 'six-second/contest-roll-off': {
      const ids = event.combatants as string[];
      const totals = event.totals as number[];
      return `Tie: ${ids.map(name).join(' and ')} roll again (${ids.map((id, i) => `${name(id)} ${totals[i]}`).join(', ')}).`;
    }
    case 'six-second/contest': {
      const order = event.order as string[];
      const totals = event.totals as number[];
      const about = typeof event.about === 'string' ? event.about : 'who goes first';
      return `Reflex checks for initiative, ${about}: ${order.map((id, i) => `${name(id)} (${totals[i]})`).join(', then ')}.`;
    }
    case 'six-second/order':
      return `Initiative order: ${(event.order as string[]).map(name).join(', ')}.`;
    case 'six-second/joins-next-round':
      return `${who}'s place in the order has passed this round; ${who} acts from next round.`;
    case 'six-second/turn-began': {
      // The event lists what was pending as the turn opened; older logs don't, and fall back to the state.
      const c = state.combatants[String(event.combatant)];
      const listed = event.pending as Array<{ name: string; seconds: number }> | undefined;
      const pending = listed
        ? listed.map((p) => `${p.name} in ${p.seconds} s`)
        : (c?.cs.pending ?? []).map((p) => `${p.name} in ${remainingSeconds(state, c!.id, p)} s`);
      const waiting = pending.length > 0 ? ` Pending: ${pending.join(', ')}.` : '';
      return event.delayed
        ? `${who} takes the delayed turn now: ${n} s.${waiting}`
        : `${who} has ${n} s (the d6 shows ${n}).${waiting}`;
    }
    case 'six-second/acted': {
      const seconds = event.seconds as number;
      const from = event.from as number;
      const to = event.to as number;
      const carry = event.carry as number;
      const target = event.target ? ` → ${name(event.target)}` : '';
      if (seconds === 0) return `${who}: ${String(event.name)}${target} (0SA).`;
      const span = from === to ? `second ${from}` : `seconds ${from}–${to}`;
      const left = Math.max(0, n - to);
      const more =
        carry > n
          ? `, ${carry} s more over ${who}'s next ${Math.ceil(carry / n)} turns`
          : carry > 0
            ? `, ${carry} s more at the start of ${who}'s next turn`
            : '';
      return `${who}: ${String(event.name)}${target} (${seconds} s, ${span}${more}) — ${left} s left.`;
    }
    case 'six-second/continued': {
      const span =
        event.from === event.to
          ? `second ${String(event.from)}`
          : `seconds ${String(event.from)}–${String(event.to)}`;
      return `${who} continues ${String(event.name)} (${span})${event.completes ? ' and completes it' : ''}.`;
    }
    case 'six-second/delay-started': {
      const p = event.effect as unknown as PendingEffect;
      const c = state.combatants[String(event.combatant)];
      const live = c?.cs.pending.find((x) => x.id === p.id);
      const where = live
        ? ` (${describeDue(state, c!.id, live)}; ${remainingSeconds(state, c!.id, live)} s to go)`
        : '';
      return `${p.name} will take effect after a ${p.delay}-second delay${where}.`;
    }
    case 'six-second/effect-occurred':
      return event.lapsed
        ? `${String(event.name)} takes effect: the seconds of ${who}'s skipped turn have passed.`
        : `${String(event.name)} takes effect, right after second ${String(event.second)} of ${who}'s turn.`;
    case 'six-second/effect-cancelled':
      return `${String(event.name)} will not take effect: ${who} is out of the fight.`;
    case 'six-second/turn-closed':
      return (event.unused as number) > 0
        ? `${who}'s turn ends; ${String(event.unused)} unused s pass.`
        : null;
    case 'six-second/turn-delayed':
      return `${who} delays: ${who} may take the turn at any moment before their next turn.`;
    case 'six-second/delay-lapsed':
      return `${who} never took the delayed turn; it lapses as the next turn comes.`;
    case 'six-second/turn-interrupted':
      return event.runningOn
        ? `${name(event.by)} interrupts ${who}'s turn after second ${String(event.second)} (${who}'s ${String(event.runningOn)} goes on at the start of ${who}'s next turn).`
        : `${name(event.by)} interrupts ${who}'s turn after second ${String(event.second)}.`;
    case 'six-second/turn-resumed':
      return event.combatant ? `${who}'s turn resumes.` : null;
    default:
      return null;
  }
}
