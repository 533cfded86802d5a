import {
  type AgendaEntry,
  cannotStart,
  combatantOf,
  type Decision,
  notRunning,
  notStarted,
  reach,
  reject,
  schedule,
  unknownCombatant,
  unschedule,
} from '@roundkeeper/engine';
import { act } from './actions.js';
import { DELAYED_EFFECT } from './clock.js';
import type { SixSecondCommand } from './commands.js';
import type { SixSecondEvent, SixSecondEventOf, SixSecondFact } from './events.js';
import { contest, insertLateArrival, rollInitiative } from './initiative.js';
import { complete, dueEffects, endTurn, reproject, spendSeconds, startRound, turnEntry } from './turns.js';
import type { Ctx } from './types.js';

/** The six-second ruleset's commands: start, next, an action, a delay, a delayed turn, a contest. */
export function decide(ctx: Ctx, command: SixSecondCommand): Decision<SixSecondEvent> {
  const { state } = ctx;
  switch (command.type) {
    case 'start': {
      const refused = cannotStart(state);
      if (refused) return refused;
      const ids = state.roster.filter((id) => combatantOf(state, id)?.active);
      const fixed = command.initiative ?? {};
      for (const id of Object.keys(fixed)) if (!state.combatants[id]) return unknownCombatant(state, id);
      const { events, order } = rollInitiative(ctx, ids, fixed);
      const started: SixSecondFact[] = [{ type: 'encounter/started' }];
      for (const e of events) started.push(e);
      return startRound(ctx, 1, order, started);
    }
    case 'next': {
      const stopped = notRunning(state);
      if (stopped) return stopped;
      return endTurn(ctx, true);
    }
    case 'act':
      return act(ctx, command);
    case 'delay': {
      const id = command.actor;
      const c = combatantOf(state, id);
      if (!c) return unknownCombatant(state, id);
      const stopped = notRunning(state);
      if (stopped) return stopped;
      if (state.current !== id) {
        const now = state.current ? (state.combatants[state.current]?.name ?? 'someone else') : 'nobody';
        return reject('turn/not-yours', `It is ${now}'s turn; ${c.name} can delay only on their own turn.`);
      }
      // 001: "A character can, on his turn, choose not to act. Instead, he can delay his turn until later."
      if (c.cs.secondsUsed > 0) {
        return reject(
          'delay/acted',
          `${c.name} has already spent ${c.cs.secondsUsed} s this turn; a turn can be delayed only before acting.`,
        );
      }
      if ((c.cs.base?.length ?? 1) > 1) {
        return reject(
          'delay/already-delayed',
          `${c.name} is taking a delayed turn now; it cannot be delayed again.`,
        );
      }
      return endTurn(ctx, false, [{ type: 'six-second/turn-delayed', combatant: id, turn: c.cs.turnNo }]);
    }
    case 'take-turn': {
      const id = command.actor;
      const c = combatantOf(state, id);
      if (!c) return unknownCombatant(state, id);
      if (state.status !== 'running' || !state.now) {
        return notRunning(state) ?? notStarted();
      }
      if (!c.active)
        return reject(
          'combatant/defeated',
          `${c.name} is out of the fight; revive ${c.name} to bring them back into the order.`,
        );
      if (!c.cs.delaying) {
        // The turn just begun is the one after the delayed turn that lapsed (its lapse began it).
        const lapsed = c.cs.lapsed !== undefined && c.cs.lapsed === c.cs.turnNo - 1;
        return reject(
          'delay/not-delaying',
          lapsed
            ? `${c.name}'s delayed turn lapsed when ${c.name}'s next turn came: a delayed turn must be taken before then. To act out of order again, ${c.name} delays on a turn of their own first.`
            : `${c.name} has no delayed turn to take; a character delays on their own turn first.`,
        );
      }
      // 001: "he can take his turn — even if it is in the middle of someone else's turn (but not in the
      // middle of an action …). The other character begins his turn, the delayed character interrupts him,
      // and the other character finishes." Actions are taken whole, so between commands no action is open.
      // An action running on into its actor's next turn has taken every second left of this turn: the
      // moment after that last second is between two of its parts (as every other turn before the
      // actor's next one is), so the delayed turn may come there. It is the last such moment when the
      // actor is the last in the order, and the delayed turn must have one before its character's next turn.
      const entry: AgendaEntry = {
        id: ctx.newId('turn'),
        at: { round: state.round, at: [...state.now.at, 1, 0] },
        kind: 'turn',
        combatant: id,
        label: `${c.name}'s delayed turn`,
      };
      if (c.hidden) entry.secret = true;
      const events: SixSecondFact[] = [];
      const current = state.current ? state.combatants[state.current] : undefined;
      if (current) {
        const interrupted: SixSecondEventOf<'six-second/turn-interrupted'> = {
          type: 'six-second/turn-interrupted',
          combatant: current.id,
          by: id,
          second: current.cs.secondsUsed,
        };
        if (current.cs.carry) interrupted.runningOn = current.cs.carry.name;
        events.push(interrupted);
      }
      events.push(schedule(entry), ...reach(entry));
      return events;
    }
    case 'contest': {
      const ids = command.actors;
      for (const id of ids) if (!state.combatants[id]) return unknownCombatant(state, id);
      const twice = ids.map((id) => combatantOf(state, id)).find((c, i) => c && ids.indexOf(c.id) !== i);
      if (twice) {
        return reject(
          'contest/duplicate',
          `${twice.name} is named twice; each contesting character makes one Reflex check.`,
        );
      }
      return contest(ctx, ids, command.about ?? null);
    }
    default: {
      // The engine validates a command's type first; this is the last guard.
      const other: { type: string } = command;
      return reject('command/unknown', `"${other.type}" is not a six-second command.`);
    }
  }
}

/**
 * What `react` answers for an event that causes nothing (most of them): one frozen empty list, not a new
 * one per event. The engine only reads it.
 */
const NOTHING = Object.freeze([]) as readonly SixSecondFact[] as SixSecondFact[];

/** What follows from an event while a command settles: turn bookkeeping, delays, late arrivals. */
export function react(ctx: Ctx, event: SixSecondFact): SixSecondFact[] {
  const { state } = ctx;
  switch (event.type) {
    case 'turn/started': {
      const c = combatantOf(state, event.combatant);
      if (!c || !state.now) return NOTHING;
      const turn = c.cs.delaying ? c.cs.turnNo : c.cs.turnNo + 1;
      const n = state.options.turnSeconds;
      // What is pending as the turn opens, and how many of the character's own seconds away: the rest of
      // an action carried into this turn comes first, then its delay (001: "two seconds after casting").
      const pending: Array<{ name: string; seconds: number }> = c.cs.pending.map((p) => ({
        name: p.name,
        seconds: Math.max(0, (p.due.turn - turn) * n + p.due.second),
      }));
      const carry = c.cs.carry;
      if (carry && !c.cs.delaying && carry.delay !== null) {
        pending.push({ name: carry.effect ?? carry.name, seconds: carry.secondsLeft + carry.delay });
      }
      return [
        {
          type: 'six-second/turn-began',
          combatant: c.id,
          turn,
          base: state.now.at.slice(0, -1),
          round: state.round,
          delayed: c.cs.delaying,
          pending,
        },
      ];
    }
    case 'six-second/turn-began': {
      const id = event.combatant;
      const c = combatantOf(state, id);
      if (!c) return NOTHING;
      const carry = c.cs.carry;
      if (!carry || event.delayed) return c.cs.pending.length > 0 ? reproject(state, id) : NOTHING;
      const out = reproject(state, id);
      // 001: "A character can … spend the last 3 seconds of one round casting a spell and finish it on the
      // first second of the next round": the rest of a long action takes the turn's first seconds.
      const n = state.options.turnSeconds;
      const to = Math.min(carry.secondsLeft, n);
      const completes = to === carry.secondsLeft;
      out.push({
        type: 'six-second/continued',
        combatant: id,
        action: carry.action,
        name: carry.name,
        from: 1,
        to,
        completes,
        round: state.round,
        turn: c.cs.turnNo,
      });
      spendSeconds(state, id, 1, to, out);
      if (completes) complete(ctx, c, carry.action, to, carry.delay, carry.effect ?? carry.name, out);
      return out;
    }
    case 'six-second/turn-delayed': {
      const c = combatantOf(state, event.combatant);
      return c && c.cs.pending.length > 0 ? reproject(state, c.id) : NOTHING;
    }
    case 'clock/advanced': {
      // Most moments reach no delayed effect: a look at the agenda, and nothing made.
      for (const e of state.agenda) if (e.kind === DELAYED_EFFECT) return dueEffects(state);
      return NOTHING;
    }
    case 'combatant/added':
    case 'combatant/revived': {
      if (state.status !== 'running' || !state.now) return NOTHING;
      const id = event.type === 'combatant/added' ? event.combatant.id : event.combatant;
      if (event.type === 'combatant/revived' && state.rs.order.includes(id)) return NOTHING;
      const c = combatantOf(state, id);
      if (!c) return NOTHING;
      const { events, index } = insertLateArrival(ctx, id);
      const slot = index + 1;
      // A place after the turn running now is still ahead this round; at or before it, it has passed.
      if (slot > (state.now.at[0] ?? 0)) {
        events.push(schedule(turnEntry(ctx, c, state.round, slot)));
      } else {
        events.push({ type: 'six-second/joins-next-round', combatant: id });
      }
      return events;
    }
    case 'combatant/defeated': {
      const id = event.combatant;
      const c = combatantOf(state, id);
      const out: SixSecondFact[] = state.agenda
        .filter((e) => e.combatant === id && e.kind === 'turn')
        .map((e) => unschedule(e.id, 'defeated'));
      // Decision: a delay counts down the caster's own turns; with no more turns it never ends (docs).
      for (const p of c?.cs.pending ?? []) {
        out.push(unschedule(p.id, 'defeated'), {
          type: 'six-second/effect-cancelled',
          combatant: id,
          effect: p.id,
          name: p.name,
        });
      }
      return out;
    }
    default:
      return NOTHING;
  }
}
