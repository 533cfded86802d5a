import { combatantOf } from '@roundkeeper/engine';
import { describeDue, remainingSeconds } from './clock.js';
import type { SixSecondFact } from './events.js';
import type { State } from './types.js';

/** Log lines for this ruleset's events, in the GM's words. `state` is the state the event led to. */
export function describeEvent(event: SixSecondFact, state: State): string | null {
  const name = (id: string | null | undefined) =>
    typeof id === 'string' ? (state.combatants[id]?.name ?? id) : '?';
  const n = state.options.turnSeconds;
  const each = (ids: string[], totals: number[]) => ids.map((id, i) => `${name(id)} ${totals[i]}`).join(', ');
  switch (event.type) {
    case 'six-second/initiative':
      return `${name(event.combatant)}'s Initiative is ${event.total}${event.rolled ? '' : ' (rolled at the table)'}.`;
    case 'six-second/roll-off':
      return `Tie: ${event.combatants.map(name).join(' and ')} roll Initiative again (${each(event.combatants, event.totals)}).`;
    case 'six-second/roll-off-abandoned':
      return `${event.combatants.map(name).join(' and ')} kept tying; they keep the roster order (the GM may set it by hand).`;
    case 'six-second/contest-roll-off':
      return `Tie: ${event.combatants.map(name).join(' and ')} roll again (${each(event.combatants, event.totals)}).`;
    case 'six-second/contest': {
      const { order, totals } = event;
      const about = event.about ?? 'who goes first';
      return `Reflex checks for initiative, ${about}: ${order.map((id, i) => `${name(id)} (${totals[i]})`).join(', then ')}.`;
    }
    case 'six-second/order':
      return `Initiative order: ${event.order.map(name).join(', ')}.`;
    case 'six-second/joins-next-round': {
      const who = name(event.combatant);
      return `${who}'s place in the order has passed this round; ${who} acts from next round.`;
    }
    case 'six-second/turn-began': {
      const who = name(event.combatant);
      // The event lists what was pending as the turn opened; older logs don't, and fall back to the state.
      const c = combatantOf(state, event.combatant);
      const pending = event.pending
        ? event.pending.map((p) => `${p.name} in ${p.seconds} s`)
        : c
          ? c.cs.pending.map((p) => `${p.name} in ${remainingSeconds(state, c, p)} s`)
          : [];
      const waiting = pending.length > 0 ? ` Pending: ${pending.join(', ')}.` : '';
      return event.delayed
        ? `${who} takes the delayed turn now: ${n} s.${waiting}`
        : `${who} has ${n} s (the d6 shows ${n}).${waiting}`;
    }
    case 'six-second/acted': {
      const who = name(event.combatant);
      const { seconds, from, to, carry } = event;
      const target = event.target ? ` → ${name(event.target)}` : '';
      if (seconds === 0) return `${who}: ${event.name}${target} (0SA).`;
      const span = from === to ? `second ${from}` : `seconds ${from}–${to}`;
      const left = Math.max(0, n - to);
      const more =
        carry > n
          ? `, ${carry} s more over ${who}'s next ${Math.ceil(carry / n)} turns`
          : carry > 0
            ? `, ${carry} s more at the start of ${who}'s next turn`
            : '';
      return `${who}: ${event.name}${target} (${seconds} s, ${span}${more}) — ${left} s left.`;
    }
    case 'six-second/continued': {
      const span = event.from === event.to ? `second ${event.from}` : `seconds ${event.from}–${event.to}`;
      return `${name(event.combatant)} continues ${event.name} (${span})${event.completes ? ' and completes it' : ''}.`;
    }
    case 'six-second/delay-started': {
      const p = event.effect;
      const c = combatantOf(state, event.combatant);
      const live = c?.cs.pending.find((x) => x.id === p.id);
      const where =
        c && live ? ` (${describeDue(c, live)}; ${remainingSeconds(state, c, live)} s to go)` : '';
      return `${p.name} will take effect after a ${p.delay}-second delay${where}.`;
    }
    case 'six-second/effect-occurred': {
      const who = name(event.combatant);
      return event.lapsed
        ? `${event.name} takes effect: the seconds of ${who}'s skipped turn have passed.`
        : `${event.name} takes effect, right after second ${event.second} of ${who}'s turn.`;
    }
    case 'six-second/effect-cancelled':
      return `${event.name} will not take effect: ${name(event.combatant)} is out of the fight.`;
    case 'six-second/turn-closed':
      return event.unused > 0 ? `${name(event.combatant)}'s turn ends; ${event.unused} unused s pass.` : null;
    case 'six-second/turn-delayed': {
      const who = name(event.combatant);
      return `${who} delays: ${who} may take the turn at any moment before their next turn.`;
    }
    case 'six-second/delay-lapsed':
      return `${name(event.combatant)} never took the delayed turn; it lapses as the next turn comes.`;
    case 'six-second/turn-interrupted': {
      const who = name(event.combatant);
      return event.runningOn
        ? `${name(event.by)} interrupts ${who}'s turn after second ${event.second} (${who}'s ${event.runningOn} goes on at the start of ${who}'s next turn).`
        : `${name(event.by)} interrupts ${who}'s turn after second ${event.second}.`;
    }
    case 'six-second/turn-resumed':
      return event.combatant ? `${name(event.combatant)}'s turn resumes.` : null;
    default:
      return null;
  }
}
