import { writeCs, writeRs } from '@roundkeeper/engine';
import type { TempoEvent } from './events.js';
import type { State, TempoCombatant } from './types.js';

function patch(state: State, id: string, f: (cs: TempoCombatant) => Partial<TempoCombatant>): State {
  return writeCs(state, id, (cs) => Object.assign(cs, f(cs)));
}

/** Applies the ruleset's own events. */
export function evolve(state: State, event: TempoEvent): State | undefined {
  switch (event.type) {
    case 'tempo/planning': {
      // A new round: plans, reactions, Guard and Rest belong to the round that ends.
      let s: State = writeRs(state, (rs) => {
        rs.phase = 'planning';
      });
      for (const cid of s.roster) {
        s = writeCs(s, cid, (cs) => {
          cs.plan = [];
          cs.exertActions = 0;
          cs.turn = null;
          cs.reactions = [];
          cs.guarding = null;
          cs.rested = false;
        });
      }
      return s;
    }
    case 'tempo/acts-next':
    case 'tempo/counting':
      return writeRs(state, (rs) => {
        rs.phase = 'tempo';
      });
    case 'tempo/planned': {
      const item = event.plan;
      const replaces = event.replaces;
      return writeCs(state, event.combatant, (cs) => {
        cs.plan = replaces ? cs.plan.map((p) => (p.id === replaces ? item : p)) : [...cs.plan, item];
      });
    }
    case 'tempo/unplanned':
      return patch(state, event.combatant, (cs) => ({ plan: cs.plan.filter((p) => p.id !== event.plan) }));
    case 'tempo/action-taken': {
      const s = writeCs(state, event.combatant, (cs) => {
        cs.plan = cs.plan.map((p) => (p.id === event.plan ? { ...p, taken: true } : p));
        cs.turn = {
          plan: event.plan,
          action: event.action,
          slot: event.slot,
          number: event.turn,
          moveLeft: event.moveLeft,
          acted: false,
        };
      });
      return writeRs(s, (rs) => {
        rs.turnNumber = event.turn;
      });
    }
    case 'tempo/acted':
      return writeCs(state, event.combatant, (cs) => {
        if (cs.turn) {
          const turn = { ...cs.turn, acted: true };
          if (event.weapon !== undefined) turn.weapon = event.weapon;
          if (event.moveLeft !== undefined) turn.moveLeft = event.moveLeft;
          cs.turn = turn;
        }
        if (event.guarding !== undefined) cs.guarding = event.guarding;
        if (event.rested === true) cs.rested = true;
        if (event.held !== undefined) cs.held = event.held;
      });
    case 'tempo/moved':
      return patch(state, event.combatant, (cs) => ({
        turn: cs.turn ? { ...cs.turn, moveLeft: event.left } : null,
      }));
    case 'tempo/recovered':
      return patch(state, event.combatant, () => ({ exertion: event.to }));
    case 'tempo/reacted': {
      const { reaction, trigger, turn, tempo } = event;
      return patch(state, event.combatant, (cs) => ({
        reactions: [...cs.reactions, { reaction, trigger, turn, tempo }],
      }));
    }
    case 'tempo/exerted': {
      const { plan, tempo, momentum } = event;
      return patch(state, event.combatant, (cs) => ({
        exertion: event.exertion,
        exertedThisScene: true,
        ...(event.use === 'another-action' ? { exertActions: cs.exertActions + 1 } : {}),
        ...(momentum !== undefined ? { momentum: cs.momentum + momentum } : {}),
        ...(plan !== undefined && tempo !== undefined
          ? { plan: cs.plan.map((p) => (p.id === plan ? { ...p, tempo, exerted: true } : p)) }
          : {}),
      }));
    }
    case 'tempo/exertion-forced':
      return patch(state, event.combatant, () => ({ exertion: event.exertion }));
    case 'tempo/died':
      return patch(state, event.combatant, () => ({ dead: true }));
    case 'tempo/scene-ended': {
      let s: State = { ...state, rs: { ...state.rs, scene: state.rs.scene + 1 } };
      for (const cid of s.roster) s = patch(s, cid, () => ({ exertedThisScene: false }));
      return s;
    }
    default:
      return undefined;
  }
}
