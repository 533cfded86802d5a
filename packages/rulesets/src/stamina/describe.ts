import type { CoreEvent } from '@roundkeeper/engine';
import type { StaminaEvent, StaminaEventOf } from './events.js';
import type { State } from './types.js';
import { describeWeaponUse } from './weapons.js';

function signed(n: number): string {
  return n >= 0 ? `+${n}` : `−${-n}`;
}

function describeActed(event: StaminaEventOf<'stamina/acted'>, name: (id: string) => string): string {
  // An NPC's costs are the GM's (`costsUnseen` in a view): the action and its timing only.
  const costs = event.costsUnseen ? [] : [`${event.stamina} stamina`];
  if (event.defense && !event.costsUnseen) costs.push(`${event.defense} defense`);
  costs.push(`turn requirement ${event.turnRequirement}`);
  const multiTurn = !event.reaction && event.turnRequirement >= 2;
  // An action that takes several turns: this is the first of them.
  if (multiTurn) costs.push(`turn 1 of ${event.turnRequirement}`);
  const why =
    event.reduced === 'first-move'
      ? ', first move'
      : event.reduced === 'penalty-die' || event.reduced === 'cantrip'
        ? ', reduced for a penalty die'
        : event.scrambled
          ? ', not reduced after Scramble'
          : '';
  const { check } = event;
  const dice =
    check.penaltyDice || check.bonusDice
      ? ` [${check.penaltyDice} penalty, ${check.bonusDice} bonus dice]`
      : '';
  const meters = event.meters !== undefined ? ` ${event.meters} m` : '';
  // What bears on the check (conditions, wind, reach, Aim…), so the GM sees it where the roll is made.
  const said = [...check.notes];
  if (event.weapons)
    said.push(describeWeaponUse({ weapons: event.weapons, change: event.weaponChange ?? null }, multiTurn));
  if (event.ammo) said.push(`ammunition ${event.ammo === 'stow' ? 'stowed' : 'readied'}`);
  const notes = said.length ? ` — ${said.join('; ')}` : '';
  const target = event.target ? ` → ${name(event.target)}` : '';
  return `${name(event.combatant)}${event.reaction ? ' reacts:' : ':'} ${event.name}${target}${meters} (${costs.join(', ')}${why})${dice}${notes}.`;
}

function describeArcane(event: StaminaEventOf<'stamina/arcane'>, who: string): string {
  const dues = event.dues ? `; arcane dues ${event.dues}` : '';
  switch (event.change) {
    case 'gather':
      return `${who} gathers ${event.successes} arcane successes.`;
    case 'shape':
      return `${who} shapes ${event.successes} successes into the effect.`;
    case 'release':
      return `${who} releases the crafted effect${dues}.`;
    case 'lost':
      return `${who} loses the stored arcane energy${dues}.`;
    default:
      return `${who}'s spell ${event.success ? 'succeeds' : 'fails'} (${event.successes} of ${String(event.difficulty)} successes)${dues}.`;
  }
}

/** A log line for one of the stamina ruleset's own events; null for the engine's default. */
export function describeEvent(event: CoreEvent | StaminaEvent, state: State): string | null {
  const name = (id: string) => state.combatants[id]?.name ?? id;
  switch (event.type) {
    case 'stamina/initiative':
      return event.rolled ? null : `${name(event.combatant)}'s initiative is ${event.total}.`;
    case 'stamina/acted':
      return describeActed(event, name);
    case 'stamina/resources': {
      const parts: string[] = [];
      if (event.stamina) parts.push(`stamina ${signed(event.stamina)}`);
      if (event.defense) parts.push(`defense ${signed(event.defense)}`);
      return parts.length ? `${name(event.combatant)}: ${parts.join(', ')} (${event.reason}).` : null;
    }
    case 'stamina/arcane':
      return describeArcane(event, name(event.combatant));
    case 'stamina/joins-next-round':
      return `${name(event.combatant)}'s place in the order has passed; they act from next round.`;
    case 'stamina/dropped':
      return event.reason === 'disarmed'
        ? `${name(event.combatant)}'s ${event.weapon} is knocked to the ground.`
        : `${name(event.combatant)} drops ${event.weapon}.`;
    case 'stamina/continues':
      return `${name(event.combatant)}: ${event.name} goes on (turn ${event.turn} of ${event.turns}).`;
    case 'stamina/completed': {
      const loaded = event.action === 'load-weapon' && event.weapon ? `: ${event.weapon} loaded` : '';
      return `${name(event.combatant)} completes ${event.name} (${event.turns} turns)${loaded}.`;
    }
    case 'stamina/stopped': {
      const who = name(event.combatant);
      if (event.reason === 'defeated')
        return `${who}'s ${event.name} is interrupted: ${who} is out of the fight.`;
      const when = `${event.inTurn ? 'in' : 'after'} turn ${event.taken} of ${event.turns}`;
      return `${who} abandons ${event.name} ${when}; what it cost stays spent.`;
    }
    default:
      return null;
  }
}
