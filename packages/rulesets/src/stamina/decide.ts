import {
  type ActionDef,
  actorField,
  type Command,
  cannotStart,
  combatantField,
  combatantOf,
  compareInstants,
  type Decision,
  type Duration,
  type EngineEvent,
  isRejection,
  type JsonObject,
  notRunning,
  reject,
  schedule,
  unknownCombatant,
  unschedule,
} from '@roundkeeper/engine';
import { z } from 'zod';
import { flagsOf, isAttack, kindOf } from './catalog.js';
import { CONDITIONS, checkModifiers, type EffectData, movementPenalty } from './conditions.js';
import { advance, checkInitiative, keysFrom, movedTurn, scheduleRound, turnEntry } from './initiative.js';
import { catalogOf, findAction, isRefusal, planUse, type Use } from './rules.js';
import { type Ctx, rank, refsOf, type State } from './types.js';

/** How an Aim's effect is named: "Aim at Bren" (views of the hidden read it as a plain Aim). */
export const AIM_AT = 'Aim at ';

const id = z.string().min(1).max(64);
const count = z.number().int().min(0).max(1000);
const initiativeValue = z.number().int().min(-1000).max(1000).meta({ label: 'Initiative' });
const initiativeMap = z.record(actorField(), initiativeValue);
const durationSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('until-turn-start'),
    combatant: id,
    turns: z.number().int().min(1).max(100).optional(),
  }),
  z.object({
    kind: z.literal('until-turn-end'),
    combatant: id,
    turns: z.number().int().min(0).max(100).optional(),
  }),
  z.object({ kind: z.literal('until-round-end'), round: z.number().int().min(0).optional() }),
  z.object({ kind: z.literal('indefinite') }),
]);
const flag = (label: string, description: string) => z.boolean().optional().meta({ label, description });

export const commands = {
  start: z
    .object({
      initiative: initiativeMap.optional().meta({ label: 'Initiative rolled at the table' }),
      flatFooted: z.array(actorField()).max(100).optional().meta({
        label: 'Flat footed',
        description: 'Who starts the fight having lost defense equal to their reflexes.',
      }),
    })
    .meta({ label: 'Start the fight', description: 'Roll initiative and begin round 1.', gm: true }),
  next: z
    .object({
      initiative: initiativeMap
        .optional()
        .meta({ label: 'Initiative rolled at the table', description: 'For the round about to begin.' }),
    })
    .meta({ label: 'Next turn', description: 'End the current turn.' }),
  act: z
    .object({
      actor: actorField(),
      action: id.meta({ label: 'Action', hidden: true }),
      target: combatantField('Target').optional(),
      /** Free attack: the action it is made as. */
      as: id.optional().meta({
        label: 'Made as',
        from: 'actions',
        description: 'A Basic attack, Off-hand attack, Loose/shoot/fire, Throw Weapon or Throw Spell.',
      }),
      /** Take the text's reduction of the turn requirement to zero (Ready/Stow, Cast Cantrip). */
      reduce: flag('Reduce the turn requirement to 0', 'For a penalty die until the next turn.'),
      /** The check's outcome as the GM reads it; rolled with `successDice` when left out. */
      check: z
        .object({
          successes: count.meta({ label: 'Successes' }),
          success: flag('Succeeded', 'Whether the check succeeded.'),
          critical: flag('Critical', 'A critical success, or a critical failure.'),
        })
        .optional()
        .meta({
          label: 'Check',
          description: 'As rolled at the table; left empty, the successes are rolled.',
        }),
      bonusDice: z.number().int().min(0).max(20).optional().meta({ label: 'Bonus dice' }),
      spell: z
        .object({
          difficulty: count.meta({ label: 'Difficulty' }),
          cost: z
            .number()
            .int()
            .min(-100)
            .max(100)
            .default(0)
            .meta({ label: 'Cost', description: "The spell's cost; its cost modifier when ungated." }),
        })
        .optional()
        .meta({ label: 'Spell' }),
      /** Dodge: meters moved this turn. */
      distance: count.optional().meta({
        label: 'Meters moved this turn',
        unit: 'm',
        description: 'Left empty, the meters walked and dashed this turn count.',
      }),
      /** Take cover: the cover bonus. */
      cover: z.number().int().min(1).max(9).optional().meta({ label: 'Cover bonus' }),
      /** Trip made with the body (a failure costs 3 defense). */
      body: flag('With the body', 'Rather than with a weapon.'),
      /** Bash made with a shield (no penalty dice). */
      shield: flag('With a shield', 'No penalty dice.'),
      /** Disarm against a weapon wielded two-handed (four penalty dice). */
      twoHanded: flag('Weapon wielded two-handed', 'Four penalty dice instead of two.'),
      /** Wind penalty dice for this shot instead of the encounter's (heavier or smaller projectiles get fewer). */
      wind: z
        .number()
        .int()
        .min(0)
        .max(5)
        .optional()
        .meta({ label: 'Wind penalty dice', description: "For this shot, instead of the encounter's wind." }),
      /** Lunge with a Thrust weapon keeps its parry bonus. */
      thrust: flag('Thrust weapon', 'Keeps its parry bonus.'),
      /** Reach: take the penalty dice, or grant the opponent a free strike. */
      reachChoice: z
        .enum(['penalty', 'free-strike'])
        .optional()
        .meta({
          label: 'Against a longer reach',
          choices: { penalty: 'Take the penalty dice', 'free-strike': 'Grant a free strike' },
        }),
      /** The weapon the action is made with, by its name on the sheet (Ready/stow: one or more). */
      weapon: z
        .union([id, z.array(id).min(1).max(10)])
        .optional()
        .meta({ label: 'Weapon', from: 'stat:weapons' }),
      /** Disarm: the opponent's weapon it targets, by its name on their sheet. */
      targetWeapon: id
        .optional()
        .meta({ label: "Opponent's weapon", description: 'As named on their sheet.' }),
      /** Ready/stow: stow the weapon instead of readying it. */
      stow: flag('Stow instead of ready', 'Put it away.'),
      /** Ready/stow weapon/ammo: ammunition rather than a weapon. */
      ammo: flag('Ammunition', 'Ammunition rather than a weapon.'),
      /** Load weapon: the weapon's cost. */
      load: z
        .object({
          stamina: count.meta({ label: 'Stamina' }),
          turnRequirement: z.number().int().min(0).max(10).meta({ label: 'Turn requirement' }),
        })
        .optional()
        .meta({ label: 'Loading cost', description: "Left empty, the weapon's or the sheet's." }),
    })
    .meta({
      label: 'Take an action',
      description: "One of the catalog's actions, on the character's turn or as a reaction.",
    }),
  /** Give up an action with a turn requirement of two or more before it completes. */
  abandon: z
    .object({ actor: actorField() })
    .meta({ label: 'Abandon the action', description: 'Stop an action that takes several turns.' }),
  condition: z
    .object({
      target: combatantField('Combatant', 'combatants'),
      condition: z.enum(CONDITIONS).meta({
        label: 'Condition',
        choices: Object.fromEntries(CONDITIONS.map((c) => [c, `${c[0]!.toUpperCase()}${c.slice(1)}`])),
      }),
      value: z
        .number()
        .int()
        .min(1)
        .max(20)
        .optional()
        .meta({ label: 'Value', description: 'The cover bonus, or how many flank.' }),
      duration: durationSchema.optional().meta({ label: 'Duration', duration: true }),
    })
    .meta({
      label: 'Add a condition',
      description: 'Put one of the rules’ conditions on a combatant.',
      gm: true,
    }),
  adjust: z
    .object({
      combatant: actorField('Combatant'),
      stamina: z.number().int().min(-1000).max(1000).optional().meta({ label: 'Stamina change' }),
      defense: z.number().int().min(-1000).max(1000).optional().meta({ label: 'Defense change' }),
      reason: z.string().min(1).max(200).optional().meta({ label: 'Reason' }),
    })
    .meta({
      label: 'Adjust stamina or defense',
      description: 'Add or take away stamina or defense.',
      gm: true,
    }),
  'set-initiative': z
    .object({ actor: actorField('Combatant'), value: initiativeValue })
    .meta({ label: 'Set initiative', description: 'Move a combatant in the order.', gm: true }),
};

type Act = z.output<typeof commands.act>;

/** An engine effect whose expiry the engine resolves the same way as its own `add-effect`. */
function effect(
  ctx: Ctx,
  target: string,
  name: string,
  duration: Duration,
  data: EffectData,
  source?: string,
): EngineEvent {
  const expires = ctx.expiry(duration);
  const fx: JsonObject = {
    id: ctx.newId('fx'),
    name,
    target,
    duration: duration as unknown as JsonObject,
    expires: (isRejection(expires) ? { on: 'never' } : expires) as unknown as JsonObject,
    data: data as JsonObject,
  };
  if (source) fx.source = source;
  return { type: 'effect/added', effect: fx };
}

/** Successes of a check: the GM's number, or rolled with the `successDice` option. */
function successes(
  ctx: Ctx,
  actor: string,
  purpose: string,
  entered: Act['check'],
): { n: number; events: EngineEvent[] } {
  if (entered) return { n: entered.successes, events: [] };
  const c = ctx.state.combatants[actor]!;
  const roll = ctx.roll(ctx.state.options.successDice, refsOf(c.stats));
  return {
    n: Math.max(0, roll.total),
    events: [{ type: 'dice/rolled', combatant: actor, purpose, roll: roll as unknown as JsonObject }],
  };
}

const untilNextTurn = (who: string): Duration => ({ kind: 'until-turn-start', combatant: who });

/** What the form calls an action's parameter: the action's own label for it, or the command's. */
function labelOf(action: ActionDef, name: string, fallback: string): string {
  const ref = action.params?.find((p) => (typeof p === 'string' ? p : p.name) === name);
  return typeof ref === 'object' && ref.label ? ref.label : fallback;
}

function act(ctx: Ctx, command: Act): Decision {
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
  if (command.target !== undefined && !combatantOf(state, command.target))
    return unknownCombatant(state, command.target);
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
    const target = command.target ? state.combatants[command.target] : undefined;
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

  const events: EngineEvent[] = [];
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
  if (action.id === 'trip' && !command.body && command.target && command.check?.success === false) {
    const target = state.combatants[command.target]!;
    check.notes.push(`failed weapon trip: ${c.name}'s weapon is dropped at ${target.name}'s feet`);
  }
  const acted: EngineEvent = {
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
  const target = command.target ? state.combatants[command.target] : undefined;
  if (target && kindOf(made) === 'melee' && isAttack(made) && target.stats.reach > c.stats.reach) {
    if (!c.cs.reachPaid.includes(target.id)) acted.reachPaid = target.id;
  }
  events.push(acted);
  events.push(...consequences(ctx, command, use));
  return events;
}

/** What follows from the action: the text's durations as engine effects, checks, regained resources, arcane dues. */
function consequences(ctx: Ctx, command: Act, use: Use): EngineEvent[] {
  const { state } = ctx;
  const c = state.combatants[command.actor]!;
  const action = use.action;
  const flags = flagsOf(action);
  const out: EngineEvent[] = [];
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
  if (action.id === 'aim' && command.target) {
    const bonusDice = 1 + rank(c.stats, 'aim');
    out.push(
      effect(
        ctx,
        c.id,
        `${AIM_AT}${state.combatants[command.target]!.name}`,
        // "until the end of the character's next turn"
        { kind: 'until-turn-end', combatant: c.id, turns: 1 },
        { aimAt: command.target, bonusDice },
        c.id,
      ),
    );
  }
  if ((action.id === 'lunge' && !command.thrust) || made(use) === 'off-hand-attack') {
    out.push(
      effect(
        ctx,
        c.id,
        `No parry (${use.as?.name ?? action.name})`,
        untilNextTurn(c.id),
        // "any parry bonus from the weapon used": the weapon's, when the ruleset knows which it was.
        use.weapon ? { noParry: true, parryWeapon: use.weapon.weapons[0]! } : { noParry: true },
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
  if ((action.id === 'trip' || action.id === 'tackle') && command.target && command.check?.success) {
    // Trip: "If the attack succeeds the target it knocked prone" (Tackle is "a trip attack").
    const target = state.combatants[command.target]!;
    out.push(effect(ctx, target.id, 'Prone', { kind: 'indefinite' }, { condition: 'prone' }, c.id));
  }
  if (action.id === 'disarm' && command.target && command.check?.success) {
    // "If the skill check succeeds, instead of the normal effects, the weapon is knocked to the ground"
    const target = state.combatants[command.target]!;
    const weapon =
      command.targetWeapon ?? (target.cs.readied.length === 1 ? target.cs.readied[0] : undefined);
    if (weapon) out.push({ type: 'stamina/dropped', combatant: target.id, weapon, reason: 'disarmed' });
  }
  if (action.id === 'trip' && !command.body && command.target && command.check?.success === false) {
    // "If the attack was made with a weapon and failed the weapon is dropped by the target's feet."
    const melee = c.cs.readied.filter((w) => c.stats.weapons[w]?.kind === 'melee');
    const weapon = use.weapon?.weapons[0] ?? (melee.length === 1 ? melee[0] : undefined);
    if (weapon) out.push({ type: 'stamina/dropped', combatant: c.id, weapon, reason: 'failed trip' });
  }
  if (action.id === 'distracting-attack' && command.target && command.check?.success) {
    // "the target loses one point of defense plus the character's rank in the distracting attack secondary
    // skill in addition to any defense they would normally lose"; successes spent for 2 more are the GM's `adjust`.
    const target = state.combatants[command.target]!;
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

/** Defense a character loses: never below zero unless the GM allows negative resources. */
function lost(state: State, who: string, amount: number): number {
  if (state.options.allowNegative) return amount;
  return Math.max(0, Math.min(amount, state.combatants[who]!.cs.defense));
}

function regained(state: State, who: string, stamina: number, defense: number, reason: string): EngineEvent {
  const c = state.combatants[who]!;
  // Regaining never goes above the sheet's stamina and defense.
  const s = Math.max(0, Math.min(stamina, c.stats.stamina - c.cs.stamina));
  const d = Math.max(0, Math.min(defense, c.stats.defense - c.cs.defense));
  return { type: 'stamina/resources', combatant: who, stamina: s, defense: d, reason };
}

function arcaneEvents(ctx: Ctx, command: Act, use: Use): EngineEvent[] {
  const { state } = ctx;
  const c = state.combatants[command.actor]!;
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
      const out: EngineEvent[] = [
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
      const spell = command.spell!;
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

export function decide(ctx: Ctx, command: Command): Decision {
  const { state } = ctx;
  switch (command.type) {
    case 'start': {
      const refused = cannotStart(state);
      if (refused) return refused;
      const ids = state.roster.filter((x) => state.combatants[x]!.active);
      const fixed = (command.initiative ?? {}) as Record<string, number>;
      for (const x of Object.keys(fixed)) if (!combatantOf(state, x)) return unknownCombatant(state, x);
      const events: EngineEvent[] = [{ type: 'encounter/started' }];
      for (const x of (command.flatFooted ?? []) as string[]) {
        const c = combatantOf(state, x);
        if (!c) return unknownCombatant(state, x);
        // "Flat Footed: The character starts combat having lost defense equal to their reflexes stat."
        events.push({
          type: 'stamina/resources',
          combatant: x,
          stamina: 0,
          defense: -lost(state, x, c.stats.reflexes),
          reason: 'flat footed',
        });
      }
      const rolled = checkInitiative(ctx, ids, fixed);
      return [...events, ...rolled, ...scheduleRound(ctx, 1, keysFrom(rolled))];
    }
    case 'next': {
      const stopped = notRunning(state);
      if (stopped) return stopped;
      const fixed = (command.initiative ?? {}) as Record<string, number>;
      for (const x of Object.keys(fixed)) if (!combatantOf(state, x)) return unknownCombatant(state, x);
      return advance(ctx, fixed);
    }
    case 'act':
      return act(ctx, command as unknown as Act);
    case 'abandon': {
      const c = combatantOf(state, command.actor as string);
      if (!c) return unknownCombatant(state, command.actor as string);
      const p = c.cs.performing;
      if (!p) {
        return reject(
          'turn/not-performing',
          `${c.name} is not in the middle of an action that takes several turns, so there is nothing to abandon.`,
        );
      }
      // A turn the action took when it began is free again; the turn it was declared in is not ("may not
      // declare multiple actions with a turn requirement of one or greater during their turn").
      const freesTurn = state.current === c.id && p.declaredTurn !== c.turnsStarted;
      return [
        {
          type: 'stamina/stopped',
          combatant: c.id,
          action: p.action,
          name: p.name,
          taken: p.taken,
          turns: p.turns,
          reason: 'abandoned',
          inTurn: state.current === c.id,
          freesTurn,
        },
      ];
    }
    case 'condition': {
      const target = combatantOf(state, command.target as string);
      if (!target) return unknownCombatant(state, command.target as string);
      const name = command.condition as (typeof CONDITIONS)[number];
      const value = command.value as number | undefined;
      if (name === 'cover' && value !== undefined && value > 9) {
        return reject('condition/cover', 'Cover is +1 to +9 ("up to a maximum of +9").');
      }
      const duration = (command.duration ?? { kind: 'indefinite' }) as Duration;
      if ('combatant' in duration && !combatantOf(state, duration.combatant))
        return unknownCombatant(state, duration.combatant);
      const amount = value === undefined ? '' : name === 'flanked' ? ` by ${value}` : ` +${value}`;
      const label = `${name[0]!.toUpperCase()}${name.slice(1)}${amount}`;
      const data: EffectData = { condition: name };
      if (value !== undefined) data.value = value;
      return [effect(ctx, target.id, label, duration, data)];
    }
    case 'adjust': {
      const c = combatantOf(state, command.combatant as string);
      if (!c) return unknownCombatant(state, command.combatant as string);
      return [
        {
          type: 'stamina/resources',
          combatant: c.id,
          stamina: (command.stamina as number | undefined) ?? 0,
          defense: (command.defense as number | undefined) ?? 0,
          reason: (command.reason as string | undefined) ?? 'set by the GM',
        },
      ];
    }
    case 'set-initiative': {
      const c = combatantOf(state, command.actor as string);
      if (!c) return unknownCombatant(state, command.actor as string);
      const value = command.value as number;
      const key = [-value, -c.stats.initiative, state.roster.indexOf(c.id)];
      return [
        { type: 'stamina/initiative', combatant: c.id, total: value, rolled: false },
        { type: 'stamina/key', combatant: c.id, key },
        ...movedTurn(ctx, c.id, key),
      ];
    }
    default:
      return reject('command/unknown', `"${command.type}" is not a stamina command.`);
  }
}

/** Cascades: a turn refreshes the character's turn and reaction; a round refreshes once-per-round limits. */
export function react(ctx: Ctx, event: EngineEvent): EngineEvent[] {
  const { state } = ctx;
  if (event.type === 'turn/started') {
    const who = event.combatant as string;
    const p = state.combatants[who]?.cs.performing;
    const began: EngineEvent = { type: 'stamina/turn-began', combatant: who };
    // The action under way takes this turn too ("how many turns a character must take in order to perform that action").
    if (!p) return [began];
    return [
      began,
      {
        type: 'stamina/continues',
        combatant: who,
        action: p.action,
        name: p.name,
        turn: p.taken + 1,
        turns: p.turns,
      },
    ];
  }
  if (event.type === 'turn/ended') {
    const who = event.combatant as string;
    const p = state.combatants[who]?.cs.performing;
    // It completes as the last of its turns ends.
    if (p && p.taken >= p.turns)
      return [
        {
          type: 'stamina/completed',
          combatant: who,
          action: p.action,
          name: p.name,
          turns: p.turns,
          ...(p.weapon ? { weapon: p.weapon } : {}),
        },
      ];
    return [];
  }
  if (event.type === 'round/started') return [{ type: 'stamina/round-began', round: event.round as number }];
  if (event.type === 'combatant/added' && state.status === 'running') {
    const c = event.combatant as { id: string };
    const rolled = checkInitiative(ctx, [c.id]);
    const key = keysFrom(rolled).get(c.id) ?? [0];
    const entry = turnEntry(ctx, c.id, state.round, key);
    const ahead = !state.now || compareInstants(entry.at, state.now) > 0;
    return [...rolled, ahead ? schedule(entry) : { type: 'stamina/joins-next-round', combatant: c.id }];
  }
  if (event.type === 'combatant/defeated') {
    const out: EngineEvent[] = state.agenda
      .filter((e) => e.combatant === event.combatant)
      .map((e) => unschedule(e.id, 'defeated'));
    const c = state.combatants[event.combatant as string];
    const p = c?.cs.performing;
    // A character out of the fight takes no more turns, so the action under way is never completed.
    if (c && p) {
      out.push({
        type: 'stamina/stopped',
        combatant: c.id,
        action: p.action,
        name: p.name,
        taken: p.taken,
        turns: p.turns,
        reason: 'defeated',
        inTurn: state.current === c.id,
        freesTurn: false,
      });
    }
    return out;
  }
  return [];
}
