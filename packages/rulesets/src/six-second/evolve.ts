import type { Instant } from '@roundkeeper/engine';
import { appendTo, combatantOf, writeCs, writeRs } from '@roundkeeper/engine';
import { shiftInstant, shiftTuple } from './clock.js';
import type { SixSecondEvent } from './events.js';
import type { SixSecondCombatant, SpentSeconds, State } from './types.js';

/**
 * The history with `h` added: in place within a fold that already copied it (see `appendTo`), so a
 * history that grows all fight long is copied once per command (once per trial in a simulation), not per event.
 */
const record = (cs: SixSecondCombatant, h: SpentSeconds): SpentSeconds[] => appendTo(cs.history, [h]);

/** A late arrival took slot `from`: every instant at that slot or later moves down one place. */
function shiftSlots(state: State, from: number): State {
  const shift = (i: Instant): Instant => shiftInstant(i, from);
  const combatants = { ...state.combatants };
  for (const [id, c] of Object.entries(combatants)) {
    if (c.cs.base) combatants[id] = { ...c, cs: { ...c.cs, base: shiftTuple(c.cs.base, from) } };
  }
  return {
    ...state,
    combatants,
    now: state.now ? shift(state.now) : null,
    agenda: state.agenda.map((e) => ({ ...e, at: shift(e.at) })),
    effects: state.effects.map((e) =>
      e.expires.on === 'instant' ? { ...e, expires: { on: 'instant', at: shift(e.expires.at) } } : e,
    ),
  };
}

/** Applies the ruleset's own events. Each is a fact decided earlier; nothing here rolls or checks. */
export function evolve(state: State, event: SixSecondEvent): State | undefined {
  const n = state.options.turnSeconds;
  switch (event.type) {
    case 'six-second/initiative':
      return writeCs(state, event.combatant, (cs) => {
        cs.initiative = event.total;
      });
    case 'six-second/roll-off': {
      const { combatants, totals } = event;
      return combatants.reduce((s, x, i) => {
        const total = totals[i];
        return total === undefined
          ? s
          : writeCs(s, x, (cs) => {
              cs.rollOffs = [...cs.rollOffs, total];
            });
      }, state);
    }
    case 'six-second/order': {
      const shifted = event.shiftFrom !== undefined ? shiftSlots(state, event.shiftFrom) : state;
      return writeRs(shifted, (rs) => {
        rs.order = event.order;
      });
    }
    // The hot events write the combatant's `cs` directly (copied once per fold, see `writeCs`).
    case 'six-second/turn-began':
      return writeCs(state, event.combatant, (cs) => {
        cs.turnNo = event.turn;
        cs.base = event.base;
        cs.secondsUsed = 0;
        if (!event.delayed) cs.zeroUsed = 0;
        cs.delaying = false;
      });
    case 'six-second/acted':
      return writeCs(state, event.combatant, (cs) => {
        const { from, to, carry, seconds } = event;
        cs.secondsUsed = to;
        if (seconds === 0) cs.zeroUsed++;
        cs.history = record(cs, {
          round: event.round,
          turn: event.turn,
          from: seconds === 0 ? to + 1 : from,
          to,
          kind: event.kind,
          label: event.name,
        });
        if (carry > 0) {
          cs.carry = {
            action: event.action,
            name: event.name,
            kind: event.kind,
            total: seconds,
            secondsLeft: carry,
            delay: event.delay ?? null,
            effect: event.effect,
          };
        }
      });
    case 'six-second/continued':
      return writeCs(state, event.combatant, (cs) => {
        const to = event.to;
        const carry = cs.carry;
        cs.secondsUsed = to;
        // A new carry object: the one read may be shared with a state kept outside the fold.
        cs.carry = carry && !event.completes ? { ...carry, secondsLeft: carry.secondsLeft - to } : null;
        cs.history = record(cs, {
          round: event.round,
          turn: event.turn,
          from: event.from,
          to,
          kind: 'carry',
          label: `${event.name} (continued)`,
        });
      });
    case 'six-second/delay-started': {
      const p = event.effect;
      return writeCs(state, event.combatant, (cs) => {
        cs.pending = appendTo(cs.pending, [p]);
      });
    }
    case 'six-second/effect-occurred':
      return writeCs(state, event.combatant, (cs) => {
        cs.pending = cs.pending.filter((p) => p.id !== event.effect);
        cs.history = record(cs, {
          round: event.round,
          turn: event.turn,
          from: event.second,
          to: event.second,
          kind: 'effect',
          label: `${event.name} takes effect`,
        });
      });
    case 'six-second/effect-cancelled':
      return writeCs(state, event.combatant, (cs) => {
        cs.pending = cs.pending.filter((p) => p.id !== event.effect);
      });
    case 'six-second/turn-closed':
      // A turn whose seconds are all spent already (the usual end of a full turn) changes nothing.
      if (combatantOf(state, event.combatant)?.cs.secondsUsed === n) return state;
      return writeCs(state, event.combatant, (cs) => {
        cs.secondsUsed = n;
      });
    case 'six-second/turn-delayed': {
      const round = state.round;
      return writeCs(state, event.combatant, (cs) => {
        cs.delaying = true;
        cs.base = null;
        cs.history = record(cs, { round, turn: cs.turnNo, from: 1, to: n, kind: 'delay', label: 'delays' });
      });
    }
    case 'six-second/delay-lapsed':
      return writeCs(state, event.combatant, (cs) => {
        cs.delaying = false;
        cs.lapsed = event.turn;
      });
    case 'six-second/turn-interrupted':
      return writeRs(state, (rs) => {
        rs.interrupted = appendTo(rs.interrupted, [event.combatant]);
      });
    case 'six-second/turn-resumed': {
      const who = event.combatant;
      if (who === null)
        return writeRs(state, (rs) => {
          rs.interrupted = [];
        });
      const at = state.rs.interrupted.lastIndexOf(who);
      const resumed = writeRs(state, (rs) => {
        rs.interrupted = rs.interrupted.slice(0, Math.max(0, at));
      });
      resumed.current = who;
      return resumed;
    }
    case 'six-second/roll-off-abandoned':
    case 'six-second/joins-next-round':
    case 'six-second/contest-roll-off':
    case 'six-second/contest':
      return state;
    default:
      return undefined;
  }
}
