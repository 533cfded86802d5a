import {
  type ActionDef,
  type EngineEvent,
  type Instant,
  type LegalAction,
  type Rejection,
  type Ruleset,
  reject,
  type Viewer,
} from '@roundkeeper/engine';
import { ACTION_KINDS, STAMINA_CATALOG } from './catalog.js';
import { AIM_AT, commands, decide, react } from './decide.js';
import { staminaEvents } from './events.js';
import { staminaAnalysis, staminaPresent } from './present.js';
import { catalogOf, isRefusal, planUse } from './rules.js';
import { timeline } from './timeline.js';
import {
  type ArcaneStore,
  freshArcane,
  freshTurn,
  type SpentEntry,
  type StaminaCombatant,
  type StaminaTypes,
  type State,
  staminaOptions,
  staminaStats,
} from './types.js';
import { applyWeaponChange, describeWeaponUse, type WeaponChange } from './weapons.js';

export type { StaminaTypes } from './types.js';

/**
 * `stamina` (seed 004): turns in initiative order, rechecked every round; every action has a stamina cost and
 * a turn requirement — one action with a requirement of one or more per turn, the first move free of its
 * requirement; defensive actions bar attacks until the next turn; one reaction between turns.
 */

function patchCs(state: State, id: string, patch: Partial<StaminaCombatant>): State {
  const c = state.combatants[id];
  if (!c) return state;
  return { ...state, combatants: { ...state.combatants, [id]: { ...c, cs: { ...c.cs, ...patch } } } };
}

function applyArcane(state: State, event: EngineEvent): State {
  const id = event.combatant as string;
  const c = state.combatants[id];
  if (!c) return state;
  const a = c.cs.arcane;
  const successes = event.successes as number;
  const dues = a.dues + ((event.dues as number | undefined) ?? 0);
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

function evolve(state: State, event: EngineEvent): State | undefined {
  const id = event.combatant as string;
  switch (event.type) {
    case 'stamina/initiative':
      return patchCs(state, id, { initiative: event.total as number });
    case 'stamina/key':
      return patchCs(state, id, { key: event.key as number[] });
    case 'stamina/acted': {
      const c = state.combatants[id];
      if (!c) return state;
      const requirement = event.turnRequirement as number;
      const action = event.action as string;
      const patch: Partial<StaminaCombatant> = {
        stamina: c.cs.stamina - (event.stamina as number),
        defense: c.cs.defense - (event.defense as number),
      };
      if (event.reaction) patch.reactionTaken = event.name as string;
      else {
        if (requirement >= 2) {
          patch.performing = {
            action,
            name: event.name as string,
            turns: requirement,
            taken: 1,
            declaredTurn: c.turnsStarted,
            ...(Array.isArray(event.weapons) ? { weapon: event.weapons[0] as string } : {}),
          };
        }
        patch.turn = {
          requirementTaken: requirement >= 1 ? action : c.cs.turn.requirementTaken,
          zeroTaken: requirement === 0 ? [...c.cs.turn.zeroTaken, action] : c.cs.turn.zeroTaken,
          moved: c.cs.turn.moved || event.kind === 'move',
          actions: [...c.cs.turn.actions, action],
          meters: c.cs.turn.meters + (typeof event.meters === 'number' ? event.meters : 0),
        };
      }
      // The weapon's state changes now, except a load taking several turns: it is loaded when it completes.
      const change = event.weaponChange as WeaponChange | undefined;
      if (change && !(change === 'load' && requirement >= 2 && !event.reaction)) {
        Object.assign(
          patch,
          applyWeaponChange(c.cs.readied, c.cs.loaded, { weapons: event.weapons as string[], change }),
        );
      }
      if (typeof event.limit === 'string') patch.roundTaken = [...c.cs.roundTaken, event.limit];
      if (typeof event.reachPaid === 'string') patch.reachPaid = [...c.cs.reachPaid, event.reachPaid];
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
        name: event.name as string,
        stamina: event.stamina as number,
        defense: event.defense as number,
        turnRequirement: requirement,
        reaction: Boolean(event.reaction),
        during: (event.during as string | null) ?? null,
      };
      return { ...next, rs: { ...next.rs, spent: [...next.rs.spent, entry] } };
    }
    case 'stamina/resources': {
      const c = state.combatants[id];
      if (!c) return state;
      return patchCs(state, id, {
        stamina: c.cs.stamina + (event.stamina as number),
        defense: c.cs.defense + (event.defense as number),
      });
    }
    case 'stamina/arcane':
      return applyArcane(state, event);
    case 'stamina/continues': {
      const c = state.combatants[id];
      const p = c?.cs.performing;
      if (!c || !p) return state;
      const action = event.action as string;
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
      return { ...next, rs: { ...next.rs, spent: [...next.rs.spent, entry] } };
    }
    case 'stamina/dropped': {
      const c = state.combatants[id];
      if (!c) return state;
      return patchCs(state, id, { readied: c.cs.readied.filter((w) => w !== event.weapon) });
    }
    case 'stamina/completed': {
      const c = state.combatants[id];
      if (!c) return state;
      const weapon = typeof event.weapon === 'string' ? event.weapon : null;
      const loaded =
        weapon && event.action === 'load-weapon'
          ? applyWeaponChange(c.cs.readied, c.cs.loaded, { weapons: [weapon], change: 'load' }).loaded
          : c.cs.loaded;
      return patchCs(state, id, { performing: null, loaded });
    }
    case 'stamina/stopped': {
      const c = state.combatants[id];
      if (!c) return state;
      const patch: Partial<StaminaCombatant> = { performing: null };
      if (event.freesTurn) patch.turn = { ...c.cs.turn, requirementTaken: null };
      return patchCs(state, id, patch);
    }
    case 'stamina/turn-began':
      return patchCs(state, id, { turn: freshTurn(), reactionTaken: null });
    case 'stamina/round-began': {
      const combatants = { ...state.combatants };
      for (const [k, c] of Object.entries(combatants))
        combatants[k] = { ...c, cs: { ...c.cs, roundTaken: [] } };
      return { ...state, combatants, rs: { ...state.rs, spent: [] } };
    }
    case 'stamina/joins-next-round':
      return state;
    default:
      return undefined;
  }
}

function legalActions(state: State, actor: string): LegalAction[] {
  return catalogOf(state).map((action) => {
    let use = planUse(state, actor, action);
    // A reducible action refused for its requirement is still open at requirement 0, for its price.
    if (
      isRefusal(use) &&
      (use.code === 'turn/requirement-taken' || use.code === 'turn/performing') &&
      action.data?.reducible
    ) {
      const reduced = planUse(state, actor, action, { reduce: true });
      if (!isRefusal(reduced)) use = reduced;
    }
    if (isRefusal(use)) {
      return {
        action,
        enabled: false,
        reason: use.reason,
        code: use.code,
        cost: { stamina: action.cost.stamina ?? 0, turnRequirement: action.cost.turnRequirement ?? 1 },
      };
    }
    const cost: Record<string, number> = { stamina: use.stamina, turnRequirement: use.turnRequirement };
    if (use.defense) cost.defense = use.defense;
    if (use.reduced === 'penalty-die' || use.reduced === 'cantrip') cost.penaltyDice = 1;
    return { action, enabled: true, cost };
  });
}

function validateCustomAction(action: ActionDef): Rejection | undefined {
  if (!(ACTION_KINDS as readonly string[]).includes(action.kind)) {
    return reject(
      'action/kind',
      `A custom action's kind is one of ${ACTION_KINDS.join(', ')} (it decides the turn rules); "${action.kind}" is not.`,
    );
  }
  for (const key of ['stamina', 'turnRequirement', 'defense'] as const) {
    const v = action.cost[key];
    if (v !== undefined && (!Number.isInteger(v) || v < 0)) {
      return reject('action/cost', `A custom action's ${key} cost is a whole number of 0 or more; got ${v}.`);
    }
  }
  for (const key of Object.keys(action.cost)) {
    if (!['stamina', 'turnRequirement', 'defense'].includes(key)) {
      return reject(
        'action/cost',
        `Costs here are stamina, defense and turnRequirement; "${key}" is not one of them.`,
      );
    }
  }
  return undefined;
}

function describeEvent(event: EngineEvent, state: State): string | null {
  const name = (x: unknown) => (typeof x === 'string' ? (state.combatants[x]?.name ?? x) : '?');
  switch (event.type) {
    case 'stamina/initiative':
      return event.rolled ? null : `${name(event.combatant)}'s initiative is ${String(event.total)}.`;
    case 'stamina/acted': {
      const costs = [`${String(event.stamina)} stamina`];
      if (event.defense) costs.push(`${String(event.defense)} defense`);
      costs.push(`turn requirement ${String(event.turnRequirement)}`);
      // An action that takes several turns: this is the first of them.
      if (!event.reaction && (event.turnRequirement as number) >= 2)
        costs.push(`turn 1 of ${String(event.turnRequirement)}`);
      const why =
        event.reduced === 'first-move'
          ? ', first move'
          : event.reduced === 'penalty-die' || event.reduced === 'cantrip'
            ? ', reduced for a penalty die'
            : event.scrambled
              ? ', not reduced after Scramble'
              : '';
      const check = event.check as { penaltyDice: number; bonusDice: number; notes: string[] } | undefined;
      const dice =
        check && (check.penaltyDice || check.bonusDice)
          ? ` [${check.penaltyDice} penalty, ${check.bonusDice} bonus dice]`
          : '';
      const meters = typeof event.meters === 'number' ? ` ${event.meters} m` : '';
      // What bears on the check (conditions, wind, reach, Aim…), so the GM sees it where the roll is made.
      const said = [...(check?.notes ?? [])];
      if (Array.isArray(event.weapons)) {
        const use = {
          weapons: event.weapons as string[],
          change: (event.weaponChange as WeaponChange | undefined) ?? null,
        };
        said.push(describeWeaponUse(use, !event.reaction && (event.turnRequirement as number) >= 2));
      }
      if (event.ammo) said.push(`ammunition ${event.ammo === 'stow' ? 'stowed' : 'readied'}`);
      const notes = said.length ? ` — ${said.join('; ')}` : '';
      return `${name(event.combatant)}${event.reaction ? ' reacts:' : ':'} ${String(event.name)}${event.target ? ` → ${name(event.target)}` : ''}${meters} (${costs.join(', ')}${why})${dice}${notes}.`;
    }
    case 'stamina/resources': {
      const parts: string[] = [];
      if (event.stamina) parts.push(`stamina ${signed(event.stamina as number)}`);
      if (event.defense) parts.push(`defense ${signed(event.defense as number)}`);
      return parts.length ? `${name(event.combatant)}: ${parts.join(', ')} (${String(event.reason)}).` : null;
    }
    case 'stamina/arcane': {
      const who = name(event.combatant);
      const dues = event.dues ? `; arcane dues ${String(event.dues)}` : '';
      switch (event.change) {
        case 'gather':
          return `${who} gathers ${String(event.successes)} arcane successes.`;
        case 'shape':
          return `${who} shapes ${String(event.successes)} successes into the effect.`;
        case 'release':
          return `${who} releases the crafted effect${dues}.`;
        case 'lost':
          return `${who} loses the stored arcane energy${dues}.`;
        default:
          return `${who}'s spell ${event.success ? 'succeeds' : 'fails'} (${String(event.successes)} of ${String(event.difficulty)} successes)${dues}.`;
      }
    }
    case 'stamina/joins-next-round':
      return `${name(event.combatant)}'s place in the order has passed; they act from next round.`;
    case 'stamina/dropped':
      return event.reason === 'disarmed'
        ? `${name(event.combatant)}'s ${String(event.weapon)} is knocked to the ground.`
        : `${name(event.combatant)} drops ${String(event.weapon)}.`;
    case 'stamina/continues':
      return `${name(event.combatant)}: ${String(event.name)} goes on (turn ${String(event.turn)} of ${String(event.turns)}).`;
    case 'stamina/completed': {
      const loaded = event.action === 'load-weapon' && event.weapon ? `: ${String(event.weapon)} loaded` : '';
      return `${name(event.combatant)} completes ${String(event.name)} (${String(event.turns)} turns)${loaded}.`;
    }
    case 'stamina/stopped': {
      const who = name(event.combatant);
      if (event.reason === 'defeated')
        return `${who}'s ${String(event.name)} is interrupted: ${who} is out of the fight.`;
      const when = `${event.inTurn ? 'in' : 'after'} turn ${String(event.taken)} of ${String(event.turns)}`;
      return `${who} abandons ${String(event.name)} ${when}; what it cost stays spent.`;
    }
    default:
      return null;
  }
}

function signed(n: number): string {
  return n >= 0 ? `+${n}` : `−${-n}`;
}

/**
 * An Aim at a hidden combatant reads as a plain Aim: the effect would otherwise name whom it aims at.
 * `unseen` says whether the viewer may not see a combatant.
 */
function redactAim<E extends { name: string; data?: unknown }>(fx: E, unseen: (id: string) => boolean): E {
  const data = fx.data as { aimAt?: string } | undefined;
  if (typeof data?.aimAt !== 'string' || !unseen(data.aimAt)) return fx;
  const { aimAt: _a, ...rest } = data;
  return { ...fx, name: 'Aim', data: rest };
}

/** Non-GM viewers do not see what hidden combatants spent (the engine already removed them from the state). */
function redact(state: State, viewer: Viewer): State {
  if (viewer.role === 'gm') return state;
  const seen = (x: string | null) => x === null || Object.hasOwn(state.combatants, x);
  return {
    ...state,
    // The state here is already without the hidden: whoever is missing from it is unseen.
    effects: state.effects.map((fx) => redactAim(fx, (id) => !Object.hasOwn(state.combatants, id))),
    rs: { ...state.rs, spent: state.rs.spent.filter((e) => seen(e.combatant) && seen(e.during)) },
  };
}

/**
 * The engine drops events naming a hidden combatant in `combatant`/`target`/`source`, but an `effect/added`
 * carries them inside `effect`: drop those here too. An Aim at a hidden combatant loses whom it aims at;
 * a reaction taken during a hidden combatant's turn loses whose turn it was.
 */
function redactEvent(
  event: EngineEvent,
  viewer: Viewer,
  state: State,
  hidden: ReadonlySet<string>,
): EngineEvent | null {
  if (viewer.role === 'gm') return event;
  const unseen = (id: unknown) => typeof id === 'string' && hidden.has(id);
  if (event.type === 'effect/added') {
    const fx = event.effect as { target?: string; source?: string; name: string; data?: unknown } | undefined;
    if (unseen(fx?.target) || unseen(fx?.source)) return null;
    if (fx) return { ...event, effect: redactAim(fx, unseen) as never };
  }
  // An Aim's end carries only the effect's name ("Aim at Spy"): it reads as a plain Aim unless it names
  // a combatant the viewer sees.
  if (
    (event.type === 'effect/expired' || event.type === 'effect/removed') &&
    typeof event.name === 'string'
  ) {
    const aimedAt = event.name.startsWith(AIM_AT) ? event.name.slice(AIM_AT.length) : null;
    const seen = (c: { id: string; name: string }) => c.name === aimedAt && !hidden.has(c.id);
    if (aimedAt !== null && !Object.values(state.combatants).some(seen)) return { ...event, name: 'Aim' };
  }
  if (unseen(event.during)) {
    const { during: _d, ...rest } = event;
    return rest as EngineEvent;
  }
  return event;
}

export const stamina: Ruleset<StaminaTypes> = {
  id: 'stamina',
  version: 1,
  name: 'Stamina & Turn Requirements',
  summary:
    'Initiative order rechecked each round; actions cost stamina and defense; one turn-requirement action a turn.',
  optionsSchema: staminaOptions,
  statsSchema: staminaStats,
  commands,
  events: staminaEvents,
  clock: {
    unit: 'turn',
    describe(state: State, at: Instant): string {
      const c = state.current ? state.combatants[state.current] : undefined;
      return `Round ${at.round}${c ? ` · ${c.name}'s turn` : ''}`;
    },
  },
  init: () => ({ spent: [] }),
  initCombatant: (stats) => ({
    readied: Object.keys(stats.weapons).filter((w) => stats.weapons[w]!.readied),
    loaded: Object.keys(stats.weapons).filter((w) => stats.weapons[w]!.loaded),
    stamina: stats.stamina,
    defense: stats.defense,
    initiative: null,
    key: null,
    turn: freshTurn(),
    roundTaken: [],
    reactionTaken: null,
    arcane: freshArcane(),
    reachPaid: [],
    performing: null,
  }),
  catalog: () => STAMINA_CATALOG,
  decide,
  evolve,
  react,
  legalActions,
  timeline,
  describeEvent,
  redact,
  redactEvent,
  validateCustomAction,
  present: staminaPresent,
  analysis: staminaAnalysis,
};
