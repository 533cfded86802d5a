import { appendTo, writeCs } from '@roundkeeper/engine';
import type { StaminaEvent, StaminaEventOf } from './events.js';
import {
  type ArcaneStore,
  freshArcane,
  freshTurn,
  type SpentEntry,
  type StaminaCombatant,
  type State,
} from './types.js';
import { applyWeaponChange } from './weapons.js';

function patchCs(state: State, id: string, patch: Partial<StaminaCombatant>): State {
  return writeCs(state, id, (cs) => Object.assign(cs, patch));
}

function applyArcane(state: State, event: StaminaEventOf<'stamina/arcane'>): State {
  const id = event.combatant;
  const c = state.combatants[id];
  if (!c) return state;
  const a = c.cs.arcane;
  const { successes } = event;
  const dues = a.dues + event.dues;
  let next: ArcaneStore;
  switch (event.change) {
    case 'gather': {
      const inARow = a.lastGatherTurn === c.turnsStarted - 1;
      next = {
        ...a,
        stored: a.stored + successes,
        actions: a.actions + 1,
        gatherStreak: inARow ? a.gatherStreak + 1 : 1,
        lastGatherTurn: c.turnsStarted,
      };
      break;
    }
    case 'shape':
      next = { ...a, shaped: a.shaped + successes, actions: a.actions + 1 };
      break;
    case 'release':
    case 'lost':
      next = { ...freshArcane(dues), gatherStreak: a.gatherStreak, lastGatherTurn: a.lastGatherTurn };
      break;
    default:
      next = { ...a, dues };
  }
  return patchCs(state, id, { arcane: next });
}

function applyActed(state: State, event: StaminaEventOf<'stamina/acted'>): State {
  const id = event.combatant;
  const c = state.combatants[id];
  if (!c) return state;
  const requirement = event.turnRequirement;
  const action = event.action;
  const patch: Partial<StaminaCombatant> = {
    stamina: c.cs.stamina - event.stamina,
    defense: c.cs.defense - event.defense,
  };
  if (event.reaction) patch.reactionTaken = event.name;
  else {
    if (requirement >= 2) {
      const weapon = event.weapons?.[0];
      patch.performing = {
        action,
        name: event.name,
        turns: requirement,
        taken: 1,
        declaredTurn: c.turnsStarted,
        ...(weapon !== undefined ? { weapon } : {}),
      };
    }
    patch.turn = {
      requirementTaken: requirement >= 1 ? action : c.cs.turn.requirementTaken,
      zeroTaken: requirement === 0 ? [...c.cs.turn.zeroTaken, action] : c.cs.turn.zeroTaken,
      moved: c.cs.turn.moved || event.kind === 'move',
      actions: [...c.cs.turn.actions, action],
      meters: c.cs.turn.meters + (event.meters ?? 0),
    };
  }
  // The weapon's state changes now, except a load taking several turns: it is loaded when it completes.
  const change = event.weaponChange;
  if (change && !(change === 'load' && requirement >= 2 && !event.reaction)) {
    Object.assign(
      patch,
      applyWeaponChange(c.cs.readied, c.cs.loaded, { weapons: event.weapons ?? [], change }),
    );
  }
  if (event.limit !== undefined) patch.roundTaken = [...c.cs.roundTaken, event.limit];
  if (event.reachPaid !== undefined) patch.reachPaid = [...c.cs.reachPaid, event.reachPaid];
  let next = patchCs(state, id, patch);
  // Reach: "incurred the first time you attack this target since engaging or their last defensive action."
  if (event.kind === 'defensive') {
    const combatants = { ...next.combatants };
    for (const [k, other] of Object.entries(combatants)) {
      if (other.cs.reachPaid.includes(id)) {
        combatants[k] = {
          ...other,
          cs: { ...other.cs, reachPaid: other.cs.reachPaid.filter((x) => x !== id) },
        };
      }
    }
    next = { ...next, combatants };
  }
  const entry: SpentEntry = {
    round: state.round,
    combatant: id,
    action,
    name: event.name,
    stamina: event.stamina,
    defense: event.defense,
    turnRequirement: requirement,
    reaction: event.reaction,
    during: event.during ?? null,
  };
  // The round's spending grows by an entry per action: appended in place within a fold (see `appendTo`).
  return { ...next, rs: { ...next.rs, spent: appendTo(next.rs.spent, [entry]) } };
}

function applyContinues(state: State, event: StaminaEventOf<'stamina/continues'>): State {
  const id = event.combatant;
  const c = state.combatants[id];
  const p = c?.cs.performing;
  if (!c || !p) return state;
  const action = event.action;
  const next = patchCs(state, id, {
    performing: { ...p, taken: p.taken + 1 },
    turn: { ...c.cs.turn, requirementTaken: action, actions: [...c.cs.turn.actions, action] },
  });
  const entry: SpentEntry = {
    round: state.round,
    combatant: id,
    action,
    name: `${p.name} (turn ${p.taken + 1} of ${p.turns})`,
    stamina: 0,
    defense: 0,
    turnRequirement: p.turns,
    reaction: false,
    during: id,
  };
  // The round's spending grows by an entry per action: appended in place within a fold (see `appendTo`).
  return { ...next, rs: { ...next.rs, spent: appendTo(next.rs.spent, [entry]) } };
}

/** Applies one of the stamina ruleset's own events; undefined for any other event. */
export function evolve(state: State, event: StaminaEvent): State | undefined {
  switch (event.type) {
    case 'stamina/initiative':
      return patchCs(state, event.combatant, { initiative: event.total });
    case 'stamina/key':
      return patchCs(state, event.combatant, { key: event.key });
    case 'stamina/acted':
      return applyActed(state, event);
    case 'stamina/resources': {
      const c = state.combatants[event.combatant];
      if (!c) return state;
      return patchCs(state, c.id, {
        stamina: c.cs.stamina + event.stamina,
        defense: c.cs.defense + event.defense,
      });
    }
    case 'stamina/arcane':
      return applyArcane(state, event);
    case 'stamina/continues':
      return applyContinues(state, event);
    case 'stamina/dropped': {
      const c = state.combatants[event.combatant];
      if (!c) return state;
      return patchCs(state, c.id, { readied: c.cs.readied.filter((w) => w !== event.weapon) });
    }
    case 'stamina/completed': {
      const c = state.combatants[event.combatant];
      if (!c) return state;
      const weapon = event.weapon;
      const loaded =
        weapon && event.action === 'load-weapon'
          ? applyWeaponChange(c.cs.readied, c.cs.loaded, { weapons: [weapon], change: 'load' }).loaded
          : c.cs.loaded;
      return patchCs(state, c.id, { performing: null, loaded });
    }
    case 'stamina/stopped': {
      const c = state.combatants[event.combatant];
      if (!c) return state;
      const patch: Partial<StaminaCombatant> = { performing: null };
      if (event.freesTurn) patch.turn = { ...c.cs.turn, requirementTaken: null };
      return patchCs(state, c.id, patch);
    }
    case 'stamina/turn-began':
      return patchCs(state, event.combatant, { turn: freshTurn(), reactionTaken: null });
    case 'stamina/round-began': {
      let s = state;
      for (const k of Object.keys(state.combatants))
        s = writeCs(s, k, (cs) => {
          cs.roundTaken = [];
        });
      return { ...s, rs: { ...s.rs, spent: [] } };
    }
    case 'stamina/joins-next-round':
      return state;
    default:
      return undefined;
  }
}
