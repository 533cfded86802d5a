import {
  type ActionDef,
  type AgendaEntry,
  actorField,
  type Combatant,
  type Command,
  cannotStart,
  combatantField,
  combatantOf,
  compareInstants,
  type Decision,
  type EngineEvent,
  type Instant,
  type JsonObject,
  type LegalAction,
  notRunning,
  type Rejection,
  type Ruleset,
  reject,
  schedule,
  unknownCombatant,
  unschedule,
} from '@roundkeeper/engine';
import { z } from 'zod';
import {
  catalog,
  justInterrupted,
  legality,
  type Mode,
  modeFor,
  notWaiting,
  skillRoll,
  turnAhead,
  unableCheck,
} from './actions.js';
import { flagsOf, OPEND6_CATALOG, validateCustomAction } from './catalog.js';
import { opend6Events } from './events.js';
import { canAct, ladder, rollInitiative, setOrder, unitsOf } from './initiative.js';
import { effective, effectiveCodes, penaltyFor, penaltyOf, traitOf } from './penalty.js';
import { opend6Present } from './present.js';
import { redact, redactEvent } from './redact.js';
import {
  advance,
  beginRound,
  justAfter,
  lostAction,
  lostHappening,
  reachFirst,
  rollAll,
  turnEntry,
} from './round.js';
import { describeEvent, timeline } from './show.js';
import {
  type Ctx,
  type Happening,
  type Opend6Combatant,
  type Opend6Options,
  type Opend6Round,
  type Opend6Types,
  type OpenRoll,
  opend6Options,
  opend6Stats,
  type Slot,
  type State,
  UNABLE_CONDITIONS,
  type UnableCondition,
} from './types.js';

export type { Opend6Options, Opend6Stats, Opend6Types } from './types.js';
export { OPEND6_CATALOG };

const actor = actorField();
const points = (label: string) =>
  z.record(actorField(), z.number().int().min(0).max(100).meta({ label: 'Points' })).meta({ label });
const skill = z.string().trim().min(1).max(80).meta({
  label: 'Skill or attribute',
  description: 'As named on the sheet; left empty, the suggested one.',
});
const code = z
  .string()
  .trim()
  .max(20)
  .meta({ label: 'Die code', description: "Rolled instead of the sheet's, e.g. 3D+1." });
const actionId = z.string().min(1).max(64);
const rollFlag = z.boolean().meta({
  label: 'Roll the skill',
  description: "On: roll even where the action needs no roll; off: don't roll.",
});
const declareNow = z
  .number()
  .int()
  .min(1)
  .max(50)
  .meta({ label: 'Actions this round', description: 'Declared with this action, when not declared yet.' });

/** The ruleset's commands (the engine's own — add-combatant, damage, undo… — work too). */
const commands = {
  /** Begins the scene: Method 1 takes `first` or `order`; Methods 2 and 3 roll Perception. */
  start: z
    .object({
      first: actorField('Who acts first').optional(),
      order: z
        .array(actor)
        .max(200)
        .optional()
        .meta({ label: 'Order', description: 'Method 1: the order the GM sets.' }),
      characterPoints: points('Character Points on initiative').optional(),
      fatePoints: points('Fate Points on initiative').optional(),
    })
    .meta({
      label: 'Start the scene',
      description: 'Set the order or roll initiative, and begin round 1.',
      gm: true,
    }),
  /** Ends the acting turn; at the round's end, starts the next round (Method 3 rolls again). */
  next: z
    .object({
      characterPoints: points('Character Points on initiative').optional(),
      fatePoints: points('Fate Points on initiative').optional(),
    })
    .meta({
      label: 'Next turn',
      description: 'End the current turn; at the end of the round, begin the next.',
    }),
  /** 002: "her player must decide on the total number of actions … that round". */
  declare: z.object({ actor, actions: declareNow.meta({ label: 'Actions this round' }) }).meta({
    label: 'Declare actions',
    description: 'How many actions this round; it sets the multi-action penalty.',
  }),
  act: z
    .object({
      actor,
      action: actionId.meta({ label: 'Action', hidden: true }),
      target: combatantField('Target').optional(),
      skill: skill.optional(),
      code: code.optional(),
      /** false: take the action without rolling. */
      roll: rollFlag.optional(),
      /** Declare the round's actions in the same breath (for a move-up before the character's turn). */
      declare: declareNow.optional(),
      /** The GM permits moving up the character's turn (catch, resisting a mental attempt…). */
      moveUp: z.boolean().optional().meta({
        label: 'Move up the turn',
        description: "With the GM's permission: act before the turn comes.",
      }),
    })
    .meta({
      label: 'Take an action',
      description: "One of the catalog's actions: on the turn, or moved up with the GM's permission.",
    }),
  interrupt: z
    .object({
      actor,
      action: actionId.meta({ label: 'Action', from: 'actions' }),
      target: combatantField('Target').optional(),
      skill: skill.optional(),
      code: code.optional(),
      roll: rollFlag.optional(),
    })
    .meta({
      label: 'Interrupt',
      description: "After waiting: act right after another character's roll, before its result.",
    }),
  /** A waiting character takes the rest of her actions right after the current turn. */
  resume: z.object({ actor }).meta({
    label: 'Act after waiting',
    description: 'Take the rest of the declared actions right after this turn.',
  }),
  /** The GM declares the result of the open roll: interrupting it is no longer possible. */
  result: z.object({}).meta({
    label: 'Declare the result',
    description: 'Of the roll just made: it can no longer be interrupted.',
    gm: true,
  }),
  /** A roll on request: skills and attributes take the multi-action penalty; damage and resistance don't. */
  roll: z
    .object({
      actor,
      skill: skill.optional(),
      code: code.optional(),
      kind: z
        .enum(['skill', 'attribute', 'damage', 'damage-resistance'])
        .optional()
        .meta({
          label: 'Kind of roll',
          choices: {
            skill: 'Skill',
            attribute: 'Attribute',
            damage: 'Damage',
            'damage-resistance': 'Damage resistance',
          },
        }),
    })
    .meta({ label: 'Roll', description: 'A roll the GM calls for, outside an action.' }),
  incapacitate: z
    .object({
      actor: actorField('Combatant'),
      condition: z
        .enum(UNABLE_CONDITIONS)
        .default('unconscious')
        .meta({
          label: 'Condition',
          choices: Object.fromEntries(
            UNABLE_CONDITIONS.map((u) => [u, `${u[0]!.toUpperCase()}${u.slice(1)}`]),
          ),
        }),
    })
    .meta({
      label: 'Incapacitate',
      description: 'Unconscious, immobile or otherwise unable to act.',
      gm: true,
    }),
  recover: z
    .object({
      actor: actorField('Combatant'),
      /** Wild Dice added to the Perception roll he makes on recovering, when he had no place in the order. */
      characterPoints: z.number().int().min(0).max(100).optional().meta({
        label: 'Character Points on initiative',
        description: 'When recovering means rolling Perception.',
      }),
    })
    .meta({ label: 'Recover', description: 'Able to act again.', gm: true }),
};

/** Character Points on initiative: only when initiative is rolled, only from the pool, never Fate Points. */
function checkPoints(state: State, command: Command, rolling: boolean): Rejection | undefined {
  const fate = (command.fatePoints ?? {}) as Record<string, number>;
  const spentFate = Object.entries(fate).find(([, n]) => n > 0);
  if (spentFate) {
    const name = state.combatants[spentFate[0]]?.name ?? spentFate[0];
    return reject(
      'initiative/fate-points',
      `Fate Points cannot be spent on initiative (002: "Character Points, but not Fate Points"); spend Character Points for ${name} instead.`,
    );
  }
  const cp = (command.characterPoints ?? {}) as Record<string, number>;
  const leaders = new Set(unitsOf(state).map((u) => u.leader));
  for (const [id, n] of Object.entries(cp)) {
    if (n === 0) continue;
    const c = combatantOf(state, id);
    if (!c) return unknownCombatant(state, id);
    if (!rolling) {
      const when =
        state.options.initiativeMethod === 'first-significant-action'
          ? 'under Method 1 nobody rolls initiative'
          : state.options.initiativeMethod === 'perception-per-scene'
            ? 'under Method 2 initiative is rolled once, when the scene starts'
            : 'under Method 3 initiative is rolled when a round begins: spend them when pressing Next at the end of the round';
      return reject(
        'initiative/not-rolled',
        `Character Points add Wild Dice to an initiative roll, and no initiative is rolled now (${when}); keep ${c.name}'s points.`,
      );
    }
    if (!c.active) {
      return reject(
        'initiative/not-rolling',
        `${c.name} is out of the fight and rolls no initiative; keep the points.`,
      );
    }
    if (!leaders.has(id)) {
      const group = c.group ?? '';
      const leader = unitsOf(state).find((u) => u.group === group)?.leader ?? id;
      return reject(
        'initiative/group-roll',
        `${c.name}'s group ${group} rolls once, on ${state.combatants[leader]?.name ?? leader}'s sheet; spend the group's Character Points from that character.`,
      );
    }
    const unit = unitsOf(state).find((u) => u.leader === id);
    if (c.cs.unable && unit && !unit.members.some((m) => canAct(state.combatants[m]!))) {
      return reject(
        'initiative/not-rolling',
        `${c.name} is ${c.cs.unable} and rolls no initiative this round; keep the points, or record the recovery (Recover) first.`,
      );
    }
    if (c.cs.characterPoints < n) {
      return reject(
        'initiative/character-points',
        `${c.name} has ${c.cs.characterPoints} Character Point${c.cs.characterPoints === 1 ? '' : 's'}, not ${n}; spend at most ${c.cs.characterPoints}.`,
      );
    }
  }
  return undefined;
}

/**
 * Who is acting, for a refusal's sentence. A player or the table is not told the name of a hidden
 * combatant (the refusal goes back to whoever sent the command).
 */
function actingNames(ctx: Ctx): string {
  const { state } = ctx;
  const names = state.rs.acting.map((m) => {
    const c = state.combatants[m];
    if (!c) return m;
    const own = ctx.by.role === 'player' && ctx.by.combatants.includes(m);
    return c.hidden && ctx.by.role !== 'gm' && !own ? 'someone unseen' : c.name;
  });
  return [...new Set(names)].join(', ') || 'nobody';
}

function actingCheck(state: State, id: string): Rejection | undefined {
  const c = combatantOf(state, id);
  if (!c) return unknownCombatant(state, id);
  return notRunning(state);
}

function happening(
  state: State,
  at: number[],
  combatant: string,
  kind: Happening['kind'],
  label: string,
  action?: string,
): EngineEvent {
  const h: Happening = { round: state.round, at, combatant, kind, label, ...(action ? { action } : {}) };
  return { type: 'opend6/happened', happening: h as unknown as JsonObject };
}

/** Takes one catalog or custom action: counts it, rolls its skill with the penalty, records it on the clock. */
function takeAction(ctx: Ctx, command: Command, mode: Mode): Decision {
  const { state } = ctx;
  const id = command.actor as string;
  const c = state.combatants[id]!;
  const action = catalog(state).find((a) => a.id === command.action);
  if (!action) {
    return reject(
      'action/unknown',
      `There is no action "${String(command.action)}" here; pick one of ${catalog(state)
        .map((a) => a.name)
        .join(', ')}.`,
    );
  }
  const events: EngineEvent[] = [];
  let declared = c.cs.declared;
  if (command.declare !== undefined) {
    if (declared !== null) {
      return reject(
        'actions/declared',
        `${c.name} already declared ${declared} action${declared === 1 ? '' : 's'} this round; no actions may be added once the multi-action penalty is figured. ${c.name} declares again next round.`,
      );
    }
    declared = command.declare as number;
    events.push(declaredEvent(c.id, [c.id], declared, state));
  }
  const check = legality(state, c, action, mode, declared);
  if (!check.ok) return reject(check.code, check.reason, { actor: id, action: action.id });
  const flags = flagsOf(action);
  let instant: Instant = state.now ?? { round: state.round, at: [] };
  if (mode === 'interrupt') {
    // The interrupt happens just after the roll it interrupts, before its result: a moment on the agenda.
    instant = justAfter(state, 0);
    const entry: AgendaEntry = {
      id: ctx.newId('interrupt'),
      at: instant,
      kind: 'interrupt',
      combatant: id,
      label: `${c.name} interrupts`,
      ...(c.hidden ? { secret: true } : {}),
    };
    events.push(schedule(entry), unschedule(entry.id, 'reached'), {
      type: 'clock/advanced',
      to: instant as unknown as JsonObject,
    });
    events.push({ type: 'opend6/interrupted', combatant: id, interrupted: state.rs.openRoll!.combatant });
  }
  if (mode === 'move-up') {
    if (ctx.by.role !== 'gm') {
      return reject(
        'move-up/gm-only',
        `Only the GM may let ${c.name} move up their turn (catch, resisting a mental attempt…); ask the GM to move up ${c.name}'s turn for this action, or wait for it.`,
      );
    }
    if (command.moveUp !== true) {
      return reject(
        'turn/not-yours',
        `It is not ${c.name}'s turn. The GM may permit moving up ${c.name}'s turn for this action (Move up the turn), or ${c.name} may interrupt after waiting.`,
      );
    }
  }
  const number = flags.free ? null : c.cs.used + 1;
  const penalty = penaltyFor(declared, c.stats.actionAllotment);
  const acted: EngineEvent = {
    type: 'opend6/acted',
    combatant: id,
    action: action.id,
    name: action.name,
    mode,
    number,
    declared,
    penalty,
    wait: flags.wait,
  };
  if (command.target) acted.target = command.target as string;
  events.push(acted);
  const kind: Happening['kind'] = flags.free
    ? 'free'
    : flags.wait
      ? 'wait'
      : mode === 'interrupt'
        ? 'interrupt'
        : mode === 'move-up'
          ? 'move-up'
          : 'action';
  events.push(happening(state, instant.at, id, kind, action.name, action.id));
  // `roll: true` asks for the roll an action skips by default (Move over challenging terrain).
  const wantsRoll =
    command.roll === true ||
    (command.roll !== false && (flags.roll || command.skill !== undefined || command.code !== undefined));
  if (wantsRoll) {
    const rolled = skillRoll(ctx, c, {
      ...(command.skill !== undefined ? { skill: command.skill as string } : {}),
      ...(command.code !== undefined ? { code: command.code as string } : {}),
      suggested: flags.skills,
      purpose: action.name,
      declared,
    });
    if (rolled && !Array.isArray(rolled)) return rolled;
    if (rolled === null && command.roll === true) {
      return reject(
        'roll/what',
        `${c.name} has none of the skills suggested for ${action.name}${flags.skills.length > 0 ? ` (${flags.skills.join(', ')})` : ''}; enter the Skill or attribute to roll, or a Die code.`,
      );
    }
    // An interrupt's own roll does not open a new moment to interrupt: the interrupted result is still due.
    if (rolled)
      events.push(...(mode === 'interrupt' ? rolled.filter((e) => e.type !== 'opend6/roll-open') : rolled));
  }
  return events;
}

function declaredEvent(id: string, members: string[], actions: number, state: State): EngineEvent {
  const c = state.combatants[id]!;
  const penalty = penaltyFor(actions, c.stats.actionAllotment);
  const codes = effectiveCodes(c, penalty);
  return {
    type: 'opend6/declared',
    combatant: id,
    combatants: members,
    actions,
    allotment: c.stats.actionAllotment,
    penalty,
    effective: codes as unknown as JsonObject,
  };
}

function decide(ctx: Ctx, command: Command): Decision {
  const { state } = ctx;
  switch (command.type) {
    case 'start': {
      const notNow = cannotStart(state, 'scene');
      if (notNow) return notNow;
      const units = unitsOf(state);
      const method = state.options.initiativeMethod;
      const first = command.first as string | undefined;
      const order = command.order as string[] | undefined;
      for (const id of [...(first ? [first] : []), ...(order ?? [])])
        if (!combatantOf(state, id)) return unknownCombatant(state, id);
      if ((first || order) && method !== 'first-significant-action') {
        return reject(
          'initiative/method',
          `The GM sets the order only under Method 1 (first significant action); this scene uses ${method}. Change the initiative method in the options first.`,
        );
      }
      const refused = checkPoints(state, command, method !== 'first-significant-action');
      if (refused) return refused;
      const rolled =
        method === 'first-significant-action'
          ? setOrder(state, units, first, order)
          : rollAll(ctx, (command.characterPoints ?? {}) as Record<string, number>);
      return [{ type: 'encounter/started' }, ...rolled, { type: 'opend6/round-begins', round: 1 }];
    }
    case 'next': {
      const refused = notRunning(state) ?? checkPoints(state, command, willRoll(state));
      if (refused) return refused;
      return advance(ctx, (command.characterPoints ?? {}) as Record<string, number>);
    }
    case 'declare': {
      const id = command.actor as string;
      const refused = actingCheck(state, id);
      if (refused) return refused;
      const c = state.combatants[id]!;
      const unable = unableCheck(c);
      if (!unable.ok) return reject(unable.code, unable.reason);
      if (!state.rs.acting.includes(id)) {
        const later = turnAhead(state, c)
          ? `If the GM lets ${c.name} move up their turn for an action, ${c.name} declares the number with that action.`
          : lostAction(state, id, state.round)
            ? `${c.name} lost their action this round (unable to act before their turn) and declares again next round.`
            : `${c.name}'s turn this round is over; ${c.name} declares again next round.`;
        return reject(
          'turn/not-yours',
          `${c.name} declares their actions when their turn comes (002: "until her turn comes up in the round"), and it is ${actingNames(ctx)}'s turn. ${later}`,
        );
      }
      if (c.cs.declared !== null) {
        return reject(
          'actions/declared',
          `${c.name} already declared ${c.cs.declared} action${c.cs.declared === 1 ? '' : 's'} this round; no actions may be added once the multi-action penalty is figured. ${c.name} declares again next round.`,
        );
      }
      // A group acts together: one declaration for every member who has not declared yet.
      const members = state.rs.acting.filter((m) => state.combatants[m]!.cs.declared === null);
      return [declaredEvent(id, members, command.actions as number, state)];
    }
    case 'act': {
      const id = command.actor as string;
      const refused = actingCheck(state, id);
      if (refused) return refused;
      const c = state.combatants[id]!;
      const chosen = catalog(state).find((a) => a.id === command.action);
      const mode: Mode = state.rs.acting.includes(id)
        ? 'turn'
        : chosen && modeFor(state, c, chosen) === 'wait-again'
          ? 'wait-again'
          : 'move-up';
      if (mode === 'move-up' && command.moveUp !== true) {
        const unable = unableCheck(c);
        if (!unable.ok) return reject(unable.code, unable.reason, { actor: id });
        const hint = c.cs.waiting
          ? ` ${c.name} waited and may interrupt after another character's roll for an action (Interrupt), or act right after this turn (Act after waiting).`
          : '';
        // Moving up is offered only while she has a turn ahead to move up.
        const later = turnAhead(state, c)
          ? ` The GM may also let ${c.name} move up their turn for this action.`
          : lostAction(state, id, state.round)
            ? ` ${c.name} lost their action this round (unable to act before their turn) and acts again next round.`
            : c.cs.waiting
              ? ''
              : ` ${c.name}'s turn this round is over${justInterrupted(state, c) ? `; right after their interrupt ${c.name} may only wait again` : `, so ${c.name} acts again next round`}.`;
        const now = actingNames(ctx);
        return reject('turn/not-yours', `It is ${now}'s turn, not ${c.name}'s.${hint}${later}`, {
          actor: id,
        });
      }
      return takeAction(ctx, command, mode);
    }
    case 'interrupt': {
      const id = command.actor as string;
      const refused = actingCheck(state, id);
      if (refused) return refused;
      const c = state.combatants[id]!;
      if (state.rs.acting.includes(id)) {
        return reject(
          'interrupt/own-turn',
          `It is ${c.name}'s own turn; act normally instead of interrupting.`,
        );
      }
      return takeAction(ctx, command, 'interrupt');
    }
    case 'resume': {
      const id = command.actor as string;
      const refused = actingCheck(state, id);
      if (refused) return refused;
      const c = state.combatants[id]!;
      if (state.rs.acting.includes(id))
        return reject(
          'resume/acting',
          `${c.name} is already acting and takes the actions now, from the list of actions; Act after waiting is for after a wait.`,
        );
      const unable = unableCheck(c);
      if (!unable.ok) return reject(unable.code, unable.reason);
      if (!c.cs.waiting)
        return reject('resume/not-waiting', notWaiting(state, c, 'takes more actions later in the round'));
      if (c.cs.declared === null || c.cs.used >= c.cs.declared) {
        return reject(
          'actions/exhausted',
          `${c.name} has no declared actions left this round (declared ${c.cs.declared ?? 0}, used ${c.cs.used}), and none may be added once the multi-action penalty is figured; ${c.name} acts again next round.`,
        );
      }
      const entry: AgendaEntry = {
        id: ctx.newId('turn'),
        at: justAfter(state, 1),
        kind: 'turn',
        combatant: id,
        label: `${c.name} acts after waiting`,
        ...(c.hidden ? { secret: true } : {}),
        data: { resumed: true },
      };
      return [
        { type: 'opend6/resumed', combatant: id },
        schedule(entry),
        {
          type: 'opend6/slot-added',
          slot: {
            round: state.round,
            at: entry.at.at,
            members: [id],
            label: entry.label,
          } as unknown as JsonObject,
        },
      ];
    }
    case 'result': {
      const refused = notRunning(state);
      if (refused) return refused;
      const open = state.rs.openRoll;
      if (!open) {
        return reject(
          'result/no-roll',
          'No action roll is waiting for its result: the GM declares a result after the skill or attribute roll of an action, which is the moment others may interrupt. A roll called for outside an action needs no declaring.',
        );
      }
      return [{ type: 'opend6/result-declared', combatant: open.combatant, purpose: open.purpose }];
    }
    case 'roll': {
      const id = command.actor as string;
      const refused = actingCheck(state, id);
      if (refused) return refused;
      const c = state.combatants[id]!;
      if (command.skill === undefined && command.code === undefined) {
        return reject('roll/what', `Enter the Skill or attribute ${c.name} rolls, or a Die code.`);
      }
      const rolled = skillRoll(ctx, c, {
        ...(command.skill !== undefined ? { skill: command.skill as string } : {}),
        ...(command.code !== undefined ? { code: command.code as string } : {}),
        ...(command.kind !== undefined ? { kind: command.kind as 'skill' } : {}),
        purpose: 'roll',
        declared: c.cs.declared,
      });
      if (rolled === null) return reject('roll/what', `Name the skill or attribute ${c.name} rolls.`);
      if (!Array.isArray(rolled)) return rolled;
      // 002: rolls outside an action (willpower or Presence against the scene's emotional effects, a
      // GM-called Perception roll) "do not count as character actions", and only "another character's
      // action" may be interrupted: a roll on request opens no moment to interrupt.
      return rolled.filter((e) => e.type !== 'opend6/roll-open');
    }
    case 'incapacitate': {
      const id = command.actor as string;
      const c = combatantOf(state, id);
      if (!c) return unknownCombatant(state, id);
      if (c.cs.unable) {
        return reject(
          'combatant/unable',
          `${c.name} is already ${c.cs.unable}; press Recover when ${c.name} can act again.`,
        );
      }
      const events: EngineEvent[] = [
        { type: 'opend6/incapacitated', combatant: id, condition: command.condition as UnableCondition },
      ];
      if (state.status === 'running') {
        const left = c.cs.declared === null ? 0 : c.cs.declared - c.cs.used;
        if (left > 0)
          events.push({ type: 'opend6/actions-lost', combatant: id, count: left, reason: 'unable to act' });
        // 002: he "loses his action for that round if he hasn't taken it already" — a group member too:
        // his group still acts, without him, even if he recovers before its turn.
        if (turnAhead(state, c) && !lostAction(state, id, state.round)) {
          events.push({ type: 'opend6/turn-lost', combatant: id, reason: command.condition as string });
          if (!(c.side === 'npc' && c.group)) {
            for (const e of state.agenda) {
              if (e.kind === 'turn' && e.combatant === id && e.at.round === state.round)
                events.push(unschedule(e.id, 'unable to act'));
            }
          }
          events.push(lostHappening(state.round, (state.now ?? { round: 0, at: [] }).at, id));
        }
      }
      return events;
    }
    case 'recover': {
      const id = command.actor as string;
      const c = combatantOf(state, id);
      if (!c) return unknownCombatant(state, id);
      if (!c.cs.unable) {
        return reject(
          'combatant/able',
          `${c.name} is able to act already; Recover is for a character who was made unconscious, immobile or unable to act (Incapacitate).`,
        );
      }
      const spend = (command.characterPoints as number | undefined) ?? 0;
      if (spend > 0) {
        const rolls =
          state.status === 'running' &&
          c.cs.orderKey === null &&
          state.options.initiativeMethod === 'perception-per-scene';
        if (!rolls) {
          return reject(
            'initiative/not-rolled',
            `Character Points add Wild Dice to an initiative roll, and ${c.name} rolls none on recovering (only a character who had no place in the scene's order under Method 2 rolls); keep the points.`,
          );
        }
        if (c.cs.characterPoints < spend) {
          return reject(
            'initiative/character-points',
            `${c.name} has ${c.cs.characterPoints} Character Point${c.cs.characterPoints === 1 ? '' : 's'}, not ${spend}; spend at most ${c.cs.characterPoints}.`,
          );
        }
      }
      return [{ type: 'opend6/recovered', combatant: id }, ...placeOnReturn(ctx, id, spend)];
    }
    default:
      return reject(
        'command/unknown',
        `"${command.type}" is not an OpenD6 command; use one of: ${Object.keys(commands).join(', ')}.`,
      );
  }
}

/**
 * 002: the GM picks a method when rounds are declared, and it holds for the scene — Method 1's order is
 * kept "until the scene ends", Method 2 rolls "once for the entire scene". Changing it mid-scene would
 * leave a Method 2 scene nobody rolled for, or a GM order with no first actor. The other options may
 * change at any time (they apply to the next roll).
 */
function canSetOptions(state: State, next: Opend6Options): Rejection | undefined {
  if (state.status !== 'running' || next.initiativeMethod === state.options.initiativeMethod)
    return undefined;
  return reject(
    'options/method-locked',
    `The initiative method holds for the whole scene (002: the order is kept "until the scene ends", or rolled "once for the entire scene"); this scene uses ${state.options.initiativeMethod}. Change the initiative method before starting the scene, or end this scene and start a new one.`,
  );
}

/** Whether `next` now ends the round and rolls initiative (Method 3). */
function willRoll(state: State): boolean {
  if (state.options.initiativeMethod !== 'perception-per-round') return false;
  return !state.agenda.some(
    (e) =>
      e.kind === 'turn' &&
      e.at.round === state.round &&
      e.combatant !== undefined &&
      state.combatants[e.combatant]?.active,
  );
}

function patchCs(state: State, id: string, patch: Partial<Opend6Combatant>): State {
  const c = state.combatants[id];
  if (!c) return state;
  return { ...state, combatants: { ...state.combatants, [id]: { ...c, cs: { ...c.cs, ...patch } } } };
}

function patchRs(state: State, patch: Partial<Opend6Round>): State {
  return { ...state, rs: { ...state.rs, ...patch } as State['rs'] };
}

function evolve(state: State, event: EngineEvent): State | undefined {
  const id = event.combatant as string;
  switch (event.type) {
    case 'opend6/initiative': {
      let s = state;
      for (const m of event.members as string[]) {
        s = patchCs(s, m, {
          initiative: (event.total as number | null) ?? null,
          orderKey: event.key as number[],
        });
      }
      const spent = (event.characterPoints as number | undefined) ?? 0;
      const c = s.combatants[id];
      if (c && spent > 0) s = patchCs(s, id, { characterPoints: c.cs.characterPoints - spent });
      return s;
    }
    case 'opend6/round-begins':
      return state;
    case 'opend6/round-reset': {
      let s = state;
      for (const m of s.roster) s = patchCs(s, m, { declared: null, used: 0, waiting: false });
      const round = event.round as number;
      return patchRs(s, {
        acting: [],
        openRoll: null,
        slots: s.rs.slots.filter((x) => x.round >= round - 1),
        happened: s.rs.happened.filter((x) => x.round >= round - 1),
      });
    }
    case 'opend6/slots':
      return patchRs(state, { slots: [...state.rs.slots, ...(event.slots as unknown as Slot[])] });
    case 'opend6/slot-added':
      return patchRs(state, { slots: [...state.rs.slots, event.slot as unknown as Slot] });
    case 'opend6/turn':
      return patchRs(state, { acting: event.members as string[], openRoll: null });
    case 'opend6/declared': {
      let s = state;
      for (const m of event.combatants as string[]) s = patchCs(s, m, { declared: event.actions as number });
      return s;
    }
    case 'opend6/acted': {
      const c = state.combatants[id];
      // A free action (a shouted warning as an interrupt included) takes no action and keeps the watch.
      if (!c || event.number === null) return state;
      // Waiting sets the watch; any other action taken afterwards ends it (as an interrupt too): to
      // interrupt again, the character waits again.
      return patchCs(state, id, {
        used: event.number as number,
        waiting: event.wait === true,
      });
    }
    case 'opend6/interrupted':
      return state;
    case 'opend6/resumed':
      return patchCs(state, id, { waiting: false });
    case 'opend6/happened':
      return patchRs(state, { happened: [...state.rs.happened, event.happening as unknown as Happening] });
    case 'opend6/roll-open':
      return patchRs(state, { openRoll: { combatant: id, purpose: event.purpose as string } as OpenRoll });
    case 'opend6/result-declared':
      return patchRs(state, { openRoll: null });
    case 'opend6/actions-lost': {
      const c = state.combatants[id];
      if (!c) return state;
      return patchCs(state, id, { used: c.cs.declared ?? c.cs.used });
    }
    case 'opend6/turn-lost':
      return state;
    case 'opend6/incapacitated':
      return patchCs(state, id, { unable: event.condition as UnableCondition, waiting: false });
    case 'opend6/recovered':
      return patchCs(state, id, { unable: null });
    case 'opend6/joins-next-round':
      return state;
    default:
      return undefined;
  }
}

/** Cascades: a round's turns once its initiative is known; late arrivals; the defeated leave the order. */
function react(ctx: Ctx, event: EngineEvent): EngineEvent[] {
  const { state } = ctx;
  if (event.type === 'opend6/round-begins') return beginRound(ctx, event.round as number);
  if (event.type === 'opend6/slots') return reachFirst(state);
  if (event.type === 'combatant/added' && state.status === 'running')
    return lateArrival(ctx, (event.combatant as { id: string }).id);
  if (event.type === 'combatant/revived') return placeOnReturn(ctx, event.combatant as string);
  if (event.type === 'combatant/defeated') {
    const out: EngineEvent[] = [];
    const c = state.combatants[event.combatant as string];
    // A group member out of the fight before his group's turn loses this round's action, revived or not.
    if (
      c &&
      state.status === 'running' &&
      c.side === 'npc' &&
      c.group &&
      turnAhead(state, c) &&
      !lostAction(state, c.id, state.round)
    ) {
      out.push(
        { type: 'opend6/turn-lost', combatant: c.id, reason: 'out of the fight' },
        lostHappening(state.round, (state.now ?? { round: 0, at: [] }).at, c.id),
      );
    }
    for (const e of state.agenda) {
      if (e.combatant === undefined || e.combatant !== event.combatant) continue;
      const c = state.combatants[e.combatant]!;
      const group = c.side === 'npc' ? c.group : undefined;
      const others = group ? unitsOf(state).some((u) => u.group === group) : false;
      if (!others) out.push(unschedule(e.id, 'defeated'));
    }
    return out;
  }
  return [];
}

/**
 * A character who had no place in the order because he could not act when it was decided (unable or out
 * of the fight when the scene's Perception was rolled, or when the GM set the order) gets one when he
 * comes back: rolled (Method 2) or after everyone (Method 1), from the next round — 002: he "loses his
 * action for that round", not the scene. Method 3 rolls him in with everyone at the next round.
 */
function placeOnReturn(ctx: Ctx, id: string, characterPoints = 0): EngineEvent[] {
  const { state } = ctx;
  const c = state.combatants[id];
  if (!c || state.status !== 'running' || c.cs.orderKey !== null) return [];
  if (state.options.initiativeMethod === 'perception-per-round') return [];
  return lateArrival(ctx, id, 'recovered', characterPoints);
}

/** A late arrival joins its group, or gets a place: rolled (Methods 2, 3) or after everyone (Method 1). */
function lateArrival(ctx: Ctx, id: string, returning?: 'recovered', characterPoints = 0): EngineEvent[] {
  const { state } = ctx;
  const c = state.combatants[id]!;
  if (c.side === 'npc' && c.group) {
    const mate = state.roster.find(
      (m) => m !== id && state.combatants[m]!.group === c.group && state.combatants[m]!.cs.orderKey,
    );
    if (mate) {
      const other = state.combatants[mate]!;
      return [
        {
          type: 'opend6/initiative',
          combatant: id,
          members: [id],
          rolled: false,
          total: other.cs.initiative,
          key: other.cs.orderKey!,
        },
      ];
    }
  }
  const unit = { leader: id, members: [id] };
  const index = state.roster.indexOf(id);
  const events =
    state.options.initiativeMethod === 'first-significant-action'
      ? [
          {
            type: 'opend6/initiative',
            combatant: id,
            members: [id],
            rolled: false,
            total: null,
            key: [Number.MAX_SAFE_INTEGER, ...ladder(c), index],
          },
        ]
      : rollInitiative(ctx, unit, characterPoints, index);
  const key = events.find((e) => e.type === 'opend6/initiative')!.key as number[];
  const entry = turnEntry(ctx, id, state.round, key);
  const ahead =
    returning === undefined && state.now !== null && compareInstants(entry.at, state.now) > 0 && canAct(c);
  if (!ahead)
    return [
      ...events,
      { type: 'opend6/joins-next-round', combatant: id, ...(returning ? { reason: returning } : {}) },
    ];
  return [
    ...events,
    schedule(entry),
    {
      type: 'opend6/slot-added',
      slot: { round: state.round, at: key, members: [id], label: entry.label } as unknown as JsonObject,
    },
  ];
}

/**
 * What each number of declared actions would cost, before the character declares: "1 action: dodge
 * 4D+1; 2 actions: dodge 3D+1 (−1D); 3 actions: dodge 2D+1 (−2D)", for the action's first suggested
 * skill on the sheet (the one rolled by default).
 */
function penaltyChoices(c: Combatant<Opend6Types>, skills: string[]): string {
  const trait = skills.map((s) => traitOf(c, s)).find((t) => t !== undefined);
  const allotment = c.stats.actionAllotment;
  const parts: string[] = [];
  for (let n = allotment; n <= allotment + 2; n++) {
    const penalty = penaltyFor(n, allotment);
    const e = trait ? effective(trait.code, penalty) : undefined;
    const roll = e
      ? `${trait!.name} ${e.effective}${penalty > 0 ? ` (−${penalty}D)` : ''}${e.usable ? '' : ' — 0D, unusable'}`
      : penalty > 0
        ? `−${penalty}D on every skill and attribute roll`
        : 'no penalty';
    parts.push(`${n} action${n === 1 ? '' : 's'}: ${roll}`);
  }
  return `Declaring ${parts.join('; ')}.`;
}

function legalActions(state: State, id: string): LegalAction[] {
  const c = combatantOf(state, id);
  if (!c) return [];
  const penalty = penaltyOf(c);
  return catalog(state).map((action: ActionDef) => {
    const flags = flagsOf(action);
    const mode = modeFor(state, c, action);
    const cost = { actions: flags.free ? 0 : 1, penalty };
    const l = legality(state, c, action, mode, c.cs.declared);
    // The penalty this choice rolls at: the suggested skills' effective codes ("dodge 4D+1 → 3D+1").
    const codes = flags.skills
      .map((s) => traitOf(c, s))
      .filter((t) => t !== undefined)
      .map((t) => {
        const e = effective(t.code, penalty);
        return `${t.name} ${e.code}${penalty > 0 ? ` −${penalty}D = ${e.effective}` : ''}${e.usable ? '' : ' (0D: unusable)'}`;
      });
    const how =
      mode === 'interrupt'
        ? 'interrupt'
        : mode === 'wait-again'
          ? 'wait again after interrupting'
          : mode === 'move-up'
            ? 'move up (GM permits)'
            : 'on their turn';
    const label = `${action.name} (${how})${codes.length > 0 ? `: ${codes.join(', ')}` : ''}`;
    const at = state.now ?? { round: state.round, at: [] };
    const preview = { from: at, to: at, label };
    if (mode === 'move-up' && (l.ok || l.code === 'actions/undeclared')) {
      const now = state.rs.acting.map((m) => state.combatants[m]?.name ?? m).join(', ') || 'nobody';
      // 002: "Only a few instances exist in which the Game Master may permit a character to 'move up'".
      const which = flags.moveUp
        ? `${action.name} is one of the few reactions for which the GM may let ${c.name} move up their turn`
        : `the GM may let ${c.name} move up their turn only for a few reactions, such as catching a thrown object or resisting a mental attempt, or what the GM deems appropriate`;
      return {
        action,
        enabled: false,
        code: 'turn/not-yours',
        reason: `It is ${now}'s turn, not ${c.name}'s; ${which}. It takes one of ${c.name}'s actions${c.cs.declared === null ? ", and the round's number of actions is declared with it" : ''}.`,
        cost,
        preview,
      };
    }
    if (!l.ok && l.code === 'actions/undeclared') {
      return {
        action,
        enabled: false,
        code: l.code,
        reason: `${l.reason} ${penaltyChoices(c, flags.skills)}`,
        cost,
        preview,
      };
    }
    if (!l.ok) return { action, enabled: false, reason: l.reason, code: l.code, cost, preview };
    const allZero = flags.roll && codes.length > 0 && codes.every((x) => x.endsWith('(0D: unusable)'));
    if (allZero) {
      return {
        action,
        enabled: false,
        code: 'skill/zero',
        reason: `${c.name}'s skills for ${action.name} are reduced to 0D at −${penalty}D; a skill reduced to zero cannot be used.`,
        cost,
        preview,
      };
    }
    return { action, enabled: true, cost, preview };
  });
}

export const openD6: Ruleset<Opend6Types> = {
  id: 'opend6',
  version: 1,
  name: 'OpenD6',
  summary:
    'D6 System rounds: Perception initiative with the Wild Die, declared actions at −1D each beyond the first.',
  optionsSchema: opend6Options,
  statsSchema: opend6Stats,
  commands,
  events: opend6Events,
  clock: {
    unit: 'turn',
    describe(state: State, at: Instant): string {
      const slot = [...state.rs.slots]
        .reverse()
        .find(
          (s) =>
            s.round === at.round && compareInstants({ round: 0, at: s.at }, { round: 0, at: at.at }) <= 0,
        );
      return `Round ${at.round}${slot ? ` · ${slot.label}` : ''}`;
    },
  },
  init: () => ({ acting: [], slots: [], happened: [], openRoll: null }),
  initCombatant: (stats) => ({
    initiative: null,
    orderKey: null,
    characterPoints: stats.characterPoints,
    declared: null,
    used: 0,
    waiting: false,
    unable: null,
  }),
  catalog: () => OPEND6_CATALOG,
  decide,
  evolve,
  react,
  legalActions,
  timeline,
  redact,
  redactEvent,
  describeEvent,
  validateCustomAction,
  canSetOptions,
  present: opend6Present,
};
