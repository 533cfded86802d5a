import type { ActionDef } from '@roundkeeper/engine';
import { catalogWith, combatantIn, notRunning } from '@roundkeeper/engine';
import { STAMINA_CATALOG } from './catalog.js';
import { fullyCovered, has } from './conditions.js';
import { FREE_ATTACK_AS, flagsOf, isAttack, kindOf } from './flags.js';
import { rank } from './options.js';
import type { State } from './types.js';
import { isWeaponRefusal, type WeaponInput, type WeaponUse, weaponFor } from './weapons.js';

/** The catalog for an encounter: the text's actions, then the GM's custom actions. */
export function catalogOf(state: State): readonly ActionDef[] {
  return catalogWith(STAMINA_CATALOG, state.customActions);
}

/** The first action of `catalogOf(state)` with this id, without building the catalog (asked per command). */
export function findAction(state: State, id: string): ActionDef | undefined {
  for (const a of STAMINA_CATALOG) if (a.id === id) return a;
  for (const a of state.customActions) if (a.id === id) return a;
  return undefined;
}

/** How an action would be taken now: its requirement and costs after reductions. */
export interface Use {
  action: ActionDef;
  turnRequirement: number;
  stamina: number;
  defense: number;
  /** Why the requirement is zero when the action's is not. */
  reduced: 'first-move' | 'penalty-die' | 'cantrip' | null;
  /** A first move that keeps its requirement because the character scrambled. */
  scrambled?: boolean;
  reaction: boolean;
  /** The action a Free attack is made as. */
  as?: ActionDef;
  /** The weapon it is made with and what it does to it. */
  weapon?: WeaponUse;
}

export interface UseInput extends WeaponInput {
  target?: string | undefined;
  reduce?: boolean | undefined;
  as?: string | undefined;
  bonusDice?: number | undefined;
  load?: { stamina: number; turnRequirement: number } | undefined;
}

export interface Refusal {
  code: string;
  reason: string;
}

const refuse = (code: string, reason: string): Refusal => ({ code, reason });

export function isRefusal(x: Use | Refusal): x is Refusal {
  return 'code' in x;
}

function takenThisTurn(state: State, id: string, actionId: string): boolean {
  const t = combatantIn(state, id).cs.turn;
  return t.requirementTaken === actionId || t.zeroTaken.includes(actionId);
}

/** Reckless attack: "loses defense equal to twice the number of bonus dice … reduced by … rank …, minimum one." */
export function recklessDefense(bonusDice: number, recklessRank: number): number {
  return Math.max(1, 2 * bonusDice - recklessRank);
}

/**
 * Whether the character may take the action now, and how: every turn rule of the text in one place.
 * legalActions and decide both call this, so a button's reason is the refusal's message.
 */
export function planUse(state: State, id: string, action: ActionDef, input: UseInput = {}): Use | Refusal {
  const c = state.combatants[id];
  if (!c)
    return refuse(
      'combatant/unknown',
      `There is no combatant "${id}" (combatants: ${state.roster.join(', ') || 'none'}).`,
    );
  const stopped = notRunning(state);
  if (stopped) return refuse(stopped.code, stopped.message);
  if (!c.active) return refuse('combatant/defeated', `${c.name} is out of the fight.`);
  const kind = kindOf(action);
  const flags = flagsOf(action);
  const reaction = kind === 'reaction';
  const name = c.name;

  if (reaction) {
    // "Reactions are special actions that are taken outside of the character's turn."
    if (state.current === id) {
      return refuse(
        'reaction/own-turn',
        `${action.name} is a reaction, taken outside ${name}'s own turn; ${name} can take it during someone else's turn.`,
      );
    }
    // "A character can make only one reaction between each of their turns."
    if (c.cs.reactionTaken) {
      return refuse(
        'reaction/used',
        `${name} already reacted (${c.cs.reactionTaken}) since their last turn; one reaction between turns. ${name} can react again once their next turn has begun.`,
      );
    }
  } else if (state.current !== id) {
    const now = state.current ? (state.combatants[state.current]?.name ?? 'someone else') : 'nobody';
    return refuse(
      'turn/not-yours',
      `It is ${now}'s turn; ${action.name} is taken on ${name}'s own turn (only reactions come between turns).`,
    );
  }

  let made: ActionDef | undefined;
  if (flags.staminaFrom === 'action') {
    const asId = input.as ?? 'basic-attack';
    made = FREE_ATTACK_AS.some((x) => x === asId) ? findAction(state, asId) : undefined;
    if (!made) {
      const names = FREE_ATTACK_AS.map((x) => findAction(state, x)?.name ?? x);
      return refuse(
        'free-attack/as',
        `A free attack is made as a ${names.slice(0, -1).join(', ')} or ${names.at(-1)}; choose one of them under "Made as".`,
      );
    }
  }

  if (kind === 'magic') {
    if (!c.stats.arcane) {
      return refuse(
        'magic/no-arcane-trait',
        `Magic actions "may only be taken by characters with an arcane trait"; ${name} has none (give them the arcane trait on their sheet if they should).`,
      );
    }
    const barred = has(state, id, 'noMagic');
    if (barred) {
      return refuse(
        'magic/cantrip-reduced',
        `${name} reduced a Cast Cantrip to turn requirement 0 and "may not take an additional magic action" until their next turn.`,
      );
    }
  }

  if (isAttack(action) || (made && isAttack(made))) {
    const defensive = has(state, id, 'noAttacks');
    if (defensive) {
      return refuse(
        'attack/after-defensive',
        `${name} took ${defensive.name}, a defensive action, and cannot make an attack (free attacks included) until their next turn.`,
      );
    }
    const target = input.target ? state.combatants[input.target] : undefined;
    // An attack is "against an opponent" (a Free attack: "against that opponent"); an ally may be one.
    if (target?.id === id) {
      return refuse(
        'target/self',
        `${name} cannot attack themselves with ${(made ?? action).name}; name another combatant as the target.`,
      );
    }
    if (target && fullyCovered(state, target.id)) {
      return refuse(
        'target/fully-covered',
        `${target.name} has +9 cover: "completely covered and can not be attacked". Lower or remove the cover to attack.`,
      );
    }
    // Disarm: "cannot be made targeting a weapon with reach more than 2 plus the character's rank in the disarm
    // secondary skill greater than its own."
    if (target && action.id === 'disarm') {
      const most = 2 + rank(c.stats, 'disarm');
      const longer = target.stats.reach - c.stats.reach;
      if (longer > most) {
        return refuse(
          'disarm/reach',
          `${target.name}'s weapon has ${longer} more reach than ${name}'s; Disarm reaches a weapon at most ${most} longer (2 + disarm rank). Use a weapon with more reach or another attack.`,
        );
      }
    }
  }

  // The weapon it is made with; a refusal waits until the turn rules have had their say.
  const weapon = weaponFor(state, id, made ?? action, input);

  // The requirement and costs, after the text's reductions.
  let turnRequirement = reaction ? 0 : (action.cost.turnRequirement ?? 1);
  let stamina = made ? (made.cost.stamina ?? 0) : (action.cost.stamina ?? 0);
  let defense = action.cost.defense ?? 0;
  let reduced: Use['reduced'] = null;
  if (flags.staminaFrom === 'weapon') {
    // "Refer to the weapon's description": the command's numbers, the weapon's, or the sheet's.
    const first = weapon && !isWeaponRefusal(weapon) ? weapon.weapons[0] : undefined;
    const w = first === undefined ? undefined : c.stats.weapons[first];
    stamina = input.load?.stamina ?? w?.loadStamina ?? c.stats.loadStamina;
    turnRequirement = reaction
      ? 0
      : (input.load?.turnRequirement ?? w?.loadTurnRequirement ?? c.stats.loadTurnRequirement);
  }
  // Why a move keeps its requirement, for the log and the refusals.
  let kept: string | null = null;
  let scrambled = false;
  if (flags.firstMoveFree && turnRequirement > 0) {
    if (c.cs.turn.moved) {
      kept = `${action.name} keeps its turn requirement of ${turnRequirement}: only the first move action of a turn is reduced to 0.`;
    } else if (has(state, id, 'noReducedMove')) {
      // Scramble: "move actions they make on their next turn cannot have its turn requirement reduced."
      scrambled = true;
      kept = `${action.name} keeps its turn requirement of ${turnRequirement} this turn: ${name} scrambled, and "move actions they make on their next turn cannot have its turn requirement reduced".`;
    } else {
      turnRequirement = 0;
      reduced = 'first-move';
    }
  }
  const turn = c.cs.turn;
  const performing = c.cs.performing;
  // The action under way took this turn when it began (it was not declared in it).
  const continuing = performing !== null && performing.declaredTurn !== c.turnsStarted;
  /** " … can still take it now …" while the turn's one action with a turn requirement is unused. */
  const unreducedOpen = (who: string): string =>
    turn.requirementTaken || continuing
      ? ''
      : ` ${who} can still take it now without reducing it, at turn requirement ${action.cost.turnRequirement ?? 1}.`;
  if (input.reduce) {
    if (!flags.reducible) {
      return refuse(
        'turn/not-reducible',
        `${action.name}'s turn requirement cannot be reduced; the text offers that only for Ready/Stow Weapon, Ready/stow weapon/ammo and Cast Cantrip.`,
      );
    }
    if (flags.reducible === 'first-time-penalty-die' && takenThisTurn(state, id, action.id)) {
      return refuse(
        'turn/not-reducible',
        `${action.name} can be reduced to turn requirement 0 only "the first time it is taken in a turn"; ${name} already took it.${unreducedOpen(name)}`,
      );
    }
    if (flags.reducible === 'cantrip') {
      // "the caster may not take an additional magic action until their next turn": the quick cantrip is the
      // only magic action from now until then, so it cannot follow one taken earlier this turn either.
      const magic = c.cs.turn.actions
        .map((x) => findAction(state, x))
        .find((a) => a !== undefined && kindOf(a) === 'magic');
      if (magic) {
        return refuse(
          'magic/cantrip-reduced',
          `${name} already took ${magic.name} this turn; a Cast Cantrip reduced to turn requirement 0 must be the only magic action until ${name}'s next turn. Cast it next turn.`,
        );
      }
    }
    turnRequirement = 0;
    reduced = flags.reducible === 'cantrip' ? 'cantrip' : 'penalty-die';
  }
  if (action.id === 'reckless-attack' && input.bonusDice !== undefined) {
    const most = 3 + rank(c.stats, 'recklessAttack');
    if (input.bonusDice < 1 || input.bonusDice > most) {
      return refuse(
        'reckless/bonus-dice',
        `Reckless attack takes between 1 and ${most} bonus dice for ${name}.`,
      );
    }
    defense += recklessDefense(input.bonusDice, rank(c.stats, 'recklessAttack'));
  }

  // "Limit once per round." Checked before the once-per-turn rule: it is the action's own, wider limit, and
  // its reason (next round) is the one that tells the GM when the action opens again.
  const limited = made && flagsOf(made).oncePerRound ? made : flags.oncePerRound ? action : undefined;
  if (limited && c.cs.roundTaken.includes(limited.id)) {
    return refuse(
      'round/once-per-round',
      `${limited.name} is limited to once per round; ${name} already took it this round and can take it again next round.`,
    );
  }

  if (!reaction) {
    // "An action's turn requirement is simply how many turns a character must take in order to perform that action"
    if (turnRequirement >= 1 && continuing) {
      return refuse(
        'turn/performing',
        `${name} is still performing ${performing.name} (turn ${performing.taken} of ${performing.turns}), which takes this turn; only actions with turn requirement 0 are open.${kept ? ` ${kept}` : ''} To take ${action.name} instead, give up ${performing.name} first (Abandon); what it cost stays spent.`,
      );
    }
    // "a character may not declare multiple actions with a turn requirement of one or greater during their turn"
    if (turnRequirement >= 1 && turn.requirementTaken) {
      const firstDef = findAction(state, turn.requirementTaken);
      const first = firstDef?.name ?? turn.requirementTaken;
      const taken = performing?.action === turn.requirementTaken ? performing.turns : 1;
      // A first move that took the turn's requirement did so because of a Scramble: say so, as its log line does.
      const why =
        firstDef && flagsOf(firstDef).firstMoveFree && has(state, id, 'noReducedMove')
          ? ', not reduced after Scramble'
          : '';
      return refuse(
        'turn/requirement-taken',
        `${name} already took ${first} (turn requirement ${taken}${why}) this turn; only one action with a turn requirement of one or more per turn. ${kept ?? 'Actions with turn requirement 0 are still open.'}`,
      );
    }
    // "an action with a standard turn requirement of zero may only be taken once per turn unless detailed otherwise"
    if (turnRequirement === 0 && turn.zeroTaken.includes(action.id) && !flags.repeatable) {
      // A reduced action is still open at its own requirement while the turn's one is unused.
      const open = reduced === 'penalty-die' || reduced === 'cantrip' ? unreducedOpen(name) : '';
      return refuse(
        'turn/once-per-turn',
        open
          ? `${name} already took ${action.name} at turn requirement 0 this turn; it may be taken at turn requirement 0 once per turn.${open}`
          : `${name} already took ${action.name} at turn requirement 0 this turn; it may be taken once per turn, so again on ${name}'s next turn.`,
      );
    }
    // Quick attack: "This action can not be taken if the character has already taken an action with a turn requirement of one."
    if (flags.notAfterRequirement && turn.requirementTaken && continuing) {
      return refuse(
        'turn/after-requirement',
        `${action.name} cannot be taken after an action with a turn requirement of one; this turn of ${name}'s is taken by ${performing.name} (turn ${performing.taken} of ${performing.turns}). Take it once ${performing.name} is done, or give ${performing.name} up (Abandon).`,
      );
    }
    if (flags.notAfterRequirement && turn.requirementTaken) {
      return refuse(
        'turn/after-requirement',
        `${action.name} cannot be taken after an action with a turn requirement of one; ${name} already took one this turn. Take it before the turn's turn-requirement-1 action, or next turn.`,
      );
    }
  }

  if (isWeaponRefusal(weapon)) return refuse(weapon.code, weapon.reason);

  const arcane = flags.arcane;
  if (arcane === 'gather') {
    // "This action can only be taken a number of turns in a row equal to the mage's rank in the arcane aptitude primary skill."
    const limit = rank(c.stats, 'arcaneAptitude');
    const streak = c.cs.arcane.lastGatherTurn === c.turnsStarted - 1 ? c.cs.arcane.gatherStreak : 0;
    if (limit === 0) {
      return refuse(
        'magic/gather-limit',
        `${name} has no rank in arcane aptitude, and gathering is allowed "a number of turns in a row equal to" that rank. Give ${name} a rank in arcane aptitude on their sheet to gather.`,
      );
    }
    if (streak >= limit) {
      return refuse(
        'magic/gather-limit',
        `${name} has gathered ${streak} turn${streak === 1 ? '' : 's'} in a row; arcane aptitude rank ${limit} allows no more in a row. Shape or release the energy now, or gather again after a turn without gathering.`,
      );
    }
  }
  if (arcane === 'shape' && c.cs.arcane.stored - c.cs.arcane.shaped <= 0) {
    return refuse('magic/nothing-stored', `${name} has no stored arcane energy to shape; gather some first.`);
  }
  if (arcane === 'release' && c.cs.arcane.actions === 0) {
    return refuse(
      'magic/nothing-crafted',
      `${name} has no crafted effect to release; gather arcane energy first.`,
    );
  }

  if (!state.options.allowNegative) {
    if (stamina > c.cs.stamina) {
      return refuse(
        'stamina/insufficient',
        `${action.name}${made ? ` (as ${made.name})` : ''} costs ${stamina} stamina; ${name} has ${c.cs.stamina}. Regain stamina (Restoration action) or allow negative resources.`,
      );
    }
    if (defense > c.cs.defense) {
      return refuse(
        'defense/insufficient',
        `${action.name} costs ${defense} defense; ${name} has ${c.cs.defense}. Take fewer bonus dice, regain defense, or allow negative resources.`,
      );
    }
  }
  const use: Use = { action, turnRequirement, stamina, defense, reduced, reaction };
  if (scrambled) use.scrambled = true;
  if (made) use.as = made;
  if (weapon) use.weapon = weapon;
  return use;
}
