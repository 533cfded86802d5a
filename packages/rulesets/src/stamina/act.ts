import { type ActionDef, combatantOf, type Rejection, reject, unknownCombatant } from '@roundkeeper/engine';
import type { ActCommand } from './commands.js';
import { checkModifiers, movementPenalty } from './conditions.js';
import { consequences } from './consequences.js';
import type { Fact } from './effects.js';
import type { StaminaEventOf } from './events.js';
import { flagsOf, isAttack, kindOf } from './flags.js';
import { attackReach, rank } from './options.js';
import { catalogOf, findAction, isRefusal, planUse } from './rules.js';
import type { Ctx } from './types.js';

/** What the form calls an action's parameter: the action's own label for it, or the command's. */
function labelOf(action: ActionDef, name: string, fallback: string): string {
  const ref = action.params?.find((p) => (typeof p === 'string' ? p : p.name) === name);
  return typeof ref === 'object' && ref.label ? ref.label : fallback;
}

/** An action taken: refused with the reason, or what it cost and what follows from it. */
export function act(ctx: Ctx, command: ActCommand): Fact[] | Rejection {
  const { state } = ctx;
  const c = combatantOf(state, command.actor);
  if (!c) return unknownCombatant(state, command.actor);
  const action = findAction(state, command.action);
  if (!action) {
    return reject(
      'action/unknown',
      `There is no action "${command.action}" here; pick one of ${catalogOf(state)
        .map((a) => a.name)
        .join(', ')}.`,
    );
  }
  const target = command.target === undefined ? undefined : combatantOf(state, command.target);
  if (command.target !== undefined && !target) return unknownCombatant(state, command.target);
  const flags = flagsOf(action);
  if (flags.targeted && !command.target) {
    return reject(
      'action/needs-target',
      `${action.name} needs a target: choose whom ${c.name} acts against (${labelOf(action, 'target', 'Target')}).`,
    );
  }
  if (action.id === 'reckless-attack' && command.bonusDice === undefined) {
    return reject(
      'reckless/bonus-dice',
      `Reckless attack needs its bonus dice: enter the Bonus dice, between 1 and ${3 + rank(c.stats, 'recklessAttack')}.`,
    );
  }
  if ((flags.arcane === 'gated' || flags.arcane === 'ungated') && !command.spell) {
    return reject(
      'magic/spell',
      flags.arcane === 'gated'
        ? `${action.name} needs the spell: enter its Difficulty and Cost.`
        : `${action.name} needs the spell: enter its Difficulty and Cost (the cost modifier).`,
    );
  }
  const use = planUse(state, c.id, action, command);
  if (isRefusal(use)) return reject(use.code, use.reason, { actor: c.id, action: action.id });
  if (command.targetWeapon !== undefined) {
    if (action.id !== 'disarm' || !target) {
      return reject(
        'weapon/target-weapon',
        "Only a Disarm names an opponent's weapon; name the target, or leave the opponent's weapon out.",
      );
    }
    if (!target.cs.readied.includes(command.targetWeapon)) {
      const held = target.cs.readied;
      return reject(
        'weapon/not-ready',
        `${target.name} does not wield "${command.targetWeapon}" (readied: ${held.length ? held.join(', ') : 'none'}). Name one of the weapons ${target.name} holds.`,
      );
    }
  }

  const events: Fact[] = [];
  const arcane = c.cs.arcane;
  // Gather: "A character with stored arcane energy who takes an action with a turn requirement of one other than
  // to gather or shape arcane energy will lose all stored successes and suffer arcane dues as if they had released".
  if (
    use.turnRequirement >= 1 &&
    arcane.actions > 0 &&
    !['gather', 'shape', 'release'].includes(flags.arcane ?? '')
  ) {
    events.push({
      type: 'stamina/arcane',
      combatant: c.id,
      change: 'lost',
      successes: arcane.stored,
      dues: arcane.stored + arcane.actions,
    });
  }
  const check = checkModifiers(state, c.id, action, {
    target: command.target,
    bonusDice: command.bonusDice,
    reachChoice: command.reachChoice,
    as: use.as,
    shield: command.shield,
    twoHanded: command.twoHanded,
    wind: command.wind,
  });
  // Climb: "if the skill check critically fails the character loses his grip and falls"
  if (action.id === 'climb' && command.check?.critical && command.check.success === false)
    check.notes.push(`critical failure: ${c.name} loses grip and falls`);
  // Trip: "If the attack was made with a weapon and failed the weapon is dropped by the target's feet."
  if (action.id === 'trip' && !command.body && target && command.check?.success === false) {
    check.notes.push(`failed weapon trip: ${c.name}'s weapon is dropped at ${target.name}'s feet`);
  }
  const acted: StaminaEventOf<'stamina/acted'> = {
    type: 'stamina/acted',
    combatant: c.id,
    action: action.id,
    name: use.as ? `${action.name} (${use.as.name})` : action.name,
    kind: kindOf(action),
    stamina: use.stamina,
    defense: use.defense,
    turnRequirement: use.turnRequirement,
    reduced: use.reduced,
    ...(use.scrambled ? { scrambled: true } : {}),
    reaction: use.reaction,
    during: state.current,
    check,
  };
  if (command.target) acted.target = command.target;
  if (use.as) acted.as = use.as.id;
  if (use.weapon) {
    acted.weapons = use.weapon.weapons;
    if (use.weapon.change) acted.weaponChange = use.weapon.change;
  }
  if (command.ammo) acted.ammo = command.stow ? 'stow' : 'ready';
  const made = use.as ?? action;
  // "Limit once per round." (a free attack made as an off-hand attack counts too)
  if (flagsOf(made).oncePerRound) acted.limit = made.id;
  if (flags.movement !== undefined) {
    acted.meters = Math.max(
      0,
      Math.floor(c.stats.baseMovement * flags.movement) - movementPenalty(state, c.id),
    );
  }
  if (
    target &&
    kindOf(made) === 'melee' &&
    isAttack(made) &&
    target.stats.reach > attackReach(c.stats, made.id)
  ) {
    if (!c.cs.reachPaid.includes(target.id)) acted.reachPaid = target.id;
  }
  events.push(acted);
  events.push(...consequences(ctx, command, use));
  return events;
}
