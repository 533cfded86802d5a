import type { EngineEvent } from '@roundkeeper/engine';
import type { PlanItem, PlanSlot, State, TempoCombatant, TempoTypes, UsedReaction } from './types.js';

function patch(state: State, id: unknown, f: (cs: TempoCombatant) => Partial<TempoCombatant>): State {
  if (typeof id !== 'string') return state;
  const c = state.combatants[id];
  if (!c) return state;
  return {
    ...state,
    combatants: { ...state.combatants, [id]: { ...c, cs: { ...c.cs, ...f(c.cs) } as TempoTypes['cs'] } },
  };
}

/** Applies the ruleset's own events. */
export function evolve(state: State, event: EngineEvent): State | undefined {
  const id = event.combatant;
  switch (event.type) {
    case 'tempo/planning': {
      // A new round: plans, reactions, Guard and Rest belong to the round that ends.
      let s: State = { ...state, rs: { ...state.rs, phase: 'planning' } };
      for (const cid of s.roster) {
        s = patch(s, cid, () => ({
          plan: [],
          exertActions: 0,
          turn: null,
          reactions: [],
          guarding: null,
          rested: false,
        }));
      }
      return s;
    }
    case 'tempo/acts-next':
    case 'tempo/counting':
      return { ...state, rs: { ...state.rs, phase: 'tempo' } };
    case 'tempo/planned': {
      const item = event.plan as unknown as PlanItem;
      const replaces = event.replaces as string | undefined;
      return patch(state, id, (cs) => ({
        plan: replaces ? cs.plan.map((p) => (p.id === replaces ? item : p)) : [...cs.plan, item],
      }));
    }
    case 'tempo/unplanned':
      return patch(state, id, (cs) => ({ plan: cs.plan.filter((p) => p.id !== event.plan) }));
    case 'tempo/action-taken': {
      const s = patch(state, id, (cs) => ({
        plan: cs.plan.map((p) => (p.id === event.plan ? { ...p, taken: true } : p)),
        turn: {
          plan: event.plan as string,
          action: event.action as string,
          slot: event.slot as PlanSlot,
          number: event.turn as number,
          moveLeft: event.moveLeft as number,
          acted: false,
        },
      }));
      return { ...s, rs: { ...s.rs, turnNumber: event.turn as number } };
    }
    case 'tempo/acted':
      return patch(state, id, (cs) => ({
        turn: cs.turn
          ? {
              ...cs.turn,
              acted: true,
              ...(typeof event.weapon === 'string' ? { weapon: event.weapon } : {}),
              ...(typeof event.moveLeft === 'number' ? { moveLeft: event.moveLeft } : {}),
            }
          : null,
        ...(typeof event.guarding === 'string' ? { guarding: event.guarding } : {}),
        ...(event.rested === true ? { rested: true } : {}),
        ...(Array.isArray(event.held) ? { held: event.held as string[] } : {}),
      }));
    case 'tempo/moved':
      return patch(state, id, (cs) => ({
        turn: cs.turn ? { ...cs.turn, moveLeft: event.left as number } : null,
      }));
    case 'tempo/recovered':
      return patch(state, id, () => ({ exertion: event.to as number }));
    case 'tempo/reacted': {
      const used: UsedReaction = {
        reaction: event.reaction as string,
        trigger: event.trigger as string,
        turn: event.turn as number,
        tempo: event.tempo as number,
      };
      return patch(state, id, (cs) => ({ reactions: [...cs.reactions, used] }));
    }
    case 'tempo/exerted':
      return patch(state, id, (cs) => ({
        exertion: event.exertion as number,
        exertedThisScene: true,
        ...(event.use === 'another-action' ? { exertActions: cs.exertActions + 1 } : {}),
        ...(typeof event.momentum === 'number' ? { momentum: cs.momentum + event.momentum } : {}),
        ...(typeof event.plan === 'string'
          ? {
              plan: cs.plan.map((p) =>
                p.id === event.plan ? { ...p, tempo: event.tempo as number, exerted: true } : p,
              ),
            }
          : {}),
      }));
    case 'tempo/exertion-forced':
      return patch(state, id, () => ({ exertion: event.exertion as number }));
    case 'tempo/died':
      return patch(state, id, () => ({ dead: true }));
    case 'tempo/scene-ended': {
      let s: State = { ...state, rs: { ...state.rs, scene: state.rs.scene + 1 } };
      for (const cid of s.roster) s = patch(s, cid, () => ({ exertedThisScene: false }));
      return s;
    }
    default:
      return undefined;
  }
}
