import { combatantIn } from '@roundkeeper/engine';
import type { ActCommand } from './commands.js';
import type { EffectData } from './conditions.js';
import { AIM_AT, effect, type Fact, lost, regained, successes, untilNextTurn } from './effects.js';
import { flagsOf, kindOf } from './flags.js';
import { rank } from './options.js';
import type { Use } from './rules.js';
import type { Ctx } from './types.js';

/** What follows from the action: the text's durations as engine effects, checks, regained resources, arcane dues. */
export function consequences(ctx: Ctx, command: ActCommand, use: Use): Fact[] {
  const { state } = ctx;
  const c = combatantIn(state, command.actor);
  // Checked by `act` before it took the action.
  const target = command.target === undefined ? undefined : combatantIn(state, command.target);
  const action = use.action;
  const flags = flagsOf(action);
  const out: Fact[] = [];
  if (use.reduced === 'penalty-die') {
    // "adding a penalty die to all other skill checks taken until the beginning of the character's next turn"
    out.push(
      effect(ctx, c.id, `Penalty die (${action.name})`, untilNextTurn(c.id), { penaltyDice: 1 }, c.id),
    );
  }
  if (use.reduced === 'cantrip') {
    // "adds one penalty die to all other actions … until the beginning of your next turn; the caster may not take an additional magic action"
    out.push(
      effect(ctx, c.id, 'Quick cantrip', untilNextTurn(c.id), { penaltyDice: 1, noMagic: true }, c.id),
    );
  }
  if (kindOf(action) === 'defensive') {
    const data: EffectData = { noAttacks: true };
    if (action.id === 'defensive-stance') data.meleeDefenseDoubled = true;
    if (action.id === 'disengage') data.freeAttackDefense = 10;
    if (action.id === 'dodge') {
      data.rangedDefenseDoubled = true;
      // "equal to the distance they move on the turn they took this action": the GM's number, or the meters
      // Walk and Dash moved this turn, counted live until the Dodge ends.
      if (command.distance !== undefined) data.situationalDefense = command.distance;
      else data.situationalFromTurn = true;
    }
    out.push(effect(ctx, c.id, action.name, untilNextTurn(c.id), data, c.id));
  }
  if (flags.regain === 'composure') {
    const s = successes(ctx, c.id, 'regain composure', command.check);
    out.push(...s.events, regained(state, c.id, 0, s.n, `${action.name}: regain composure check`));
  }
  if (flags.regain === 'restoration') {
    const s = successes(ctx, c.id, 'restoration', command.check);
    const defense = rank(c.stats, 'personalDefense') + rank(c.stats, 'regainComposure');
    out.push(...s.events, regained(state, c.id, s.n, defense, 'Restoration action'));
  }
  if (action.id === 'aim' && target) {
    const bonusDice = 1 + rank(c.stats, 'aim');
    out.push(
      effect(
        ctx,
        c.id,
        `${AIM_AT}${target.name}`,
        // "until the end of the character's next turn"
        { kind: 'until-turn-end', combatant: c.id, turns: 1 },
        { aimAt: target.id, bonusDice },
        c.id,
      ),
    );
  }
  if ((action.id === 'lunge' && !command.thrust) || made(use) === 'off-hand-attack') {
    const parryWeapon = use.weapon?.weapons[0];
    out.push(
      effect(
        ctx,
        c.id,
        `No parry (${use.as?.name ?? action.name})`,
        untilNextTurn(c.id),
        // "any parry bonus from the weapon used": the weapon's, when the ruleset knows which it was.
        parryWeapon !== undefined ? { noParry: true, parryWeapon } : { noParry: true },
        c.id,
      ),
    );
  }
  if (action.id === 'scramble') {
    // The reaction comes outside the character's turn, so "their next turn" is the next one to start.
    out.push(
      effect(
        ctx,
        c.id,
        'Scrambled',
        { kind: 'until-turn-end', combatant: c.id, turns: 1 },
        { noReducedMove: true },
        c.id,
      ),
    );
  }
  if (action.id === 'take-cover' && command.cover) {
    out.push(
      effect(
        ctx,
        c.id,
        `Cover +${command.cover}`,
        { kind: 'indefinite' },
        { condition: 'cover', value: command.cover },
        c.id,
      ),
    );
  }
  if (action.id === 'tackle') {
    // "always results in the character becoming prone regardless of success"
    out.push(effect(ctx, c.id, 'Prone', { kind: 'indefinite' }, { condition: 'prone' }, c.id));
  }
  if ((action.id === 'trip' || action.id === 'tackle') && target && command.check?.success) {
    // Trip: "If the attack succeeds the target it knocked prone" (Tackle is "a trip attack").
    out.push(effect(ctx, target.id, 'Prone', { kind: 'indefinite' }, { condition: 'prone' }, c.id));
  }
  if (action.id === 'disarm' && target && command.check?.success) {
    // "If the skill check succeeds, instead of the normal effects, the weapon is knocked to the ground"
    const weapon =
      command.targetWeapon ?? (target.cs.readied.length === 1 ? target.cs.readied[0] : undefined);
    if (weapon) out.push({ type: 'stamina/dropped', combatant: target.id, weapon, reason: 'disarmed' });
  }
  if (action.id === 'trip' && !command.body && target && command.check?.success === false) {
    // "If the attack was made with a weapon and failed the weapon is dropped by the target's feet."
    const melee = c.cs.readied.filter((w) => c.stats.weapons[w]?.kind === 'melee');
    const weapon = use.weapon?.weapons[0] ?? (melee.length === 1 ? melee[0] : undefined);
    if (weapon) out.push({ type: 'stamina/dropped', combatant: c.id, weapon, reason: 'failed trip' });
  }
  if (action.id === 'distracting-attack' && target && command.check?.success) {
    // "the target loses one point of defense plus the character's rank in the distracting attack secondary
    // skill in addition to any defense they would normally lose"; successes spent for 2 more are the GM's `adjust`.
    out.push({
      type: 'stamina/resources',
      combatant: target.id,
      stamina: 0,
      defense: -lost(state, target.id, 1 + rank(c.stats, 'distractingAttack')),
      reason: `${c.name}'s distracting attack`,
    });
  }
  if (action.id === 'trip' && command.body && command.check?.success === false) {
    // "If the attack was made with the character's body and failed the attacker loses 3 defense"
    out.push({
      type: 'stamina/resources',
      combatant: c.id,
      stamina: 0,
      defense: -lost(state, c.id, 3),
      reason: 'failed trip with the body',
    });
    // "if it critically failed the attacker becomes prone"
    if (command.check.critical)
      out.push(effect(ctx, c.id, 'Prone', { kind: 'indefinite' }, { condition: 'prone' }, c.id));
  }
  out.push(...arcaneEvents(ctx, command, use));
  return out;
}

/** The action actually made (a Free attack's chosen action, or the action itself). */
function made(use: Use): string {
  return use.as?.id ?? use.action.id;
}

/** Arcane energy gathered, shaped, released or spent on a spell, with its dues. */
function arcaneEvents(ctx: Ctx, command: ActCommand, use: Use): Fact[] {
  const { state } = ctx;
  const c = combatantIn(state, command.actor);
  const a = c.cs.arcane;
  const kind = flagsOf(use.action).arcane;
  switch (kind) {
    case 'gather': {
      const s = successes(ctx, c.id, 'gather arcane energy', command.check);
      return [
        ...s.events,
        { type: 'stamina/arcane', combatant: c.id, change: 'gather', successes: s.n, dues: 0 },
      ];
    }
    case 'shape': {
      const s = successes(ctx, c.id, 'shape arcane energy', command.check);
      const shaped = Math.min(s.n, a.stored - a.shaped);
      return [
        ...s.events,
        { type: 'stamina/arcane', combatant: c.id, change: 'shape', successes: shaped, dues: 0 },
      ];
    }
    case 'release': {
      // "arcane dues equal to the number of successes worth of power they had stored plus one for each … gather … or shape"
      const out: Fact[] = [
        {
          type: 'stamina/arcane',
          combatant: c.id,
          change: 'release',
          successes: a.shaped,
          dues: a.stored + a.actions,
        },
      ];
      // "can be thrown as normal within a number of rounds equal to the character's rank in arcane aptitude"
      const rounds = Math.max(1, rank(c.stats, 'arcaneAptitude'));
      out.push(
        effect(
          ctx,
          c.id,
          `Crafted effect (${a.shaped} successes)`,
          { kind: 'until-round-end', round: state.round + rounds - 1 },
          { value: a.shaped },
          c.id,
        ),
      );
      return out;
    }
    case 'gated':
    case 'ungated': {
      const spell = command.spell;
      // `act` refuses a spell without its difficulty and cost before it gets here.
      if (!spell) throw new Error(`${use.action.name} was taken without the spell's difficulty and cost.`);
      const difficulty = spell.difficulty + (kind === 'ungated' ? 1 : 0);
      const s = successes(ctx, c.id, use.action.name, command.check);
      const success = command.check?.success ?? s.n >= difficulty;
      const dues = !success ? s.n : kind === 'gated' ? spell.cost : s.n + spell.cost;
      return [
        ...s.events,
        {
          type: 'stamina/arcane',
          combatant: c.id,
          change: kind,
          successes: s.n,
          success,
          difficulty,
          dues: Math.max(0, dues),
        },
      ];
    }
    default:
      return [];
  }
}
