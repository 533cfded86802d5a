import {
  type AgendaEntry,
  type Combatant,
  cannotStart,
  combatantOf,
  type Decision,
  isRejection,
  notRunning,
  type Rejection,
  reject,
  schedule,
  unknownCombatant,
  unschedule,
} from '@roundkeeper/engine';
import {
  actionOf,
  justInterrupted,
  type Mode,
  modeFor,
  notWaiting,
  skillRoll,
  turnAhead,
  unableCheck,
} from './actions.js';
import { MOVE_UP_LABEL, type Opend6Command, type Opend6CommandOf, opend6Commands } from './commands.js';
import type { AnyEvent, Opend6Event } from './events.js';
import { checkPoints, setOrder, unitsOf, willRoll } from './initiative.js';
import { placeOnReturn } from './react.js';
import { advance, justAfter, lostAction, lostHappening, rollAll } from './round.js';
import { declaredEvent, takeAction } from './take.js';
import type { Ctx, Opend6Types, State } from './types.js';

type C = Combatant<Opend6Types>;

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

/** The combatant a command acts for, while the scene runs; or why not. */
function actingCombatant(state: State, id: string): C | Rejection {
  const c = combatantOf(state, id);
  if (!c) return unknownCombatant(state, id);
  return notRunning(state) ?? c;
}

/** Method 1 takes `first` or `order`; Methods 2 and 3 roll Perception. */
function start(ctx: Ctx, command: Opend6CommandOf<'start'>): Decision<Opend6Event> {
  const { state } = ctx;
  const notNow = cannotStart(state, 'scene');
  if (notNow) return notNow;
  const method = state.options.initiativeMethod;
  const { first, order } = command;
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
      ? setOrder(state, unitsOf(state), first, order)
      : rollAll(ctx, command.characterPoints ?? {});
  const events: AnyEvent[] = [
    { type: 'encounter/started' },
    ...rolled,
    { type: 'opend6/round-begins', round: 1 },
  ];
  return events;
}

function declare(ctx: Ctx, command: Opend6CommandOf<'declare'>): Decision<Opend6Event> {
  const { state } = ctx;
  const id = command.actor;
  // As `actingCombatant` says, without asking a combatant object whether it is a refusal.
  const c = combatantOf(state, id);
  if (!c) return unknownCombatant(state, id);
  const stopped = notRunning(state);
  if (stopped) return stopped;
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
      `${c.name} declares their actions when their turn comes (the rules: "until her turn comes up in the round"), and it is ${actingNames(ctx)}'s turn. ${later}`,
    );
  }
  if (c.cs.declared !== null) {
    return reject(
      'actions/declared',
      `${c.name} already declared ${c.cs.declared} action${c.cs.declared === 1 ? '' : 's'} this round; no actions may be added once the multi-action penalty is figured. ${c.name} declares again next round.`,
    );
  }
  // A group acts together: one declaration for every member who has not declared yet.
  const members = state.rs.acting.filter((m) => state.combatants[m]?.cs.declared === null);
  return [declaredEvent(id, members, command.actions, state)];
}

function act(ctx: Ctx, command: Opend6CommandOf<'act'>): Decision<Opend6Event> {
  const { state } = ctx;
  const id = command.actor;
  // As `actingCombatant` says, without asking a combatant object whether it is a refusal.
  const c = combatantOf(state, id);
  if (!c) return unknownCombatant(state, id);
  const stopped = notRunning(state);
  if (stopped) return stopped;
  const chosen = actionOf(state, command.action);
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
      ? ` The GM may also let ${c.name} move up their turn for this action ("${MOVE_UP_LABEL}" with it).`
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
  return takeAction(ctx, command, mode, chosen);
}

function interrupt(ctx: Ctx, command: Opend6CommandOf<'interrupt'>): Decision<Opend6Event> {
  const c = actingCombatant(ctx.state, command.actor);
  if (isRejection(c)) return c;
  if (ctx.state.rs.acting.includes(c.id)) {
    return reject('interrupt/own-turn', `It is ${c.name}'s own turn; act normally instead of interrupting.`);
  }
  return takeAction(ctx, command, 'interrupt');
}

/** A waiting character takes the rest of her actions right after the current turn. */
function resume(ctx: Ctx, command: Opend6CommandOf<'resume'>): Decision<Opend6Event> {
  const { state } = ctx;
  const id = command.actor;
  const c = actingCombatant(state, id);
  if (isRejection(c)) return c;
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
      slot: { round: state.round, at: entry.at.at, members: [id], label: entry.label, resumed: true },
    },
  ];
}

/** The GM declares the result of the open roll: interrupting it is no longer possible. */
function result(state: State): Decision<Opend6Event> {
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

/** A roll on request: skills and attributes take the multi-action penalty; damage and resistance don't. */
function roll(ctx: Ctx, command: Opend6CommandOf<'roll'>): Decision<Opend6Event> {
  const c = actingCombatant(ctx.state, command.actor);
  if (isRejection(c)) return c;
  if (command.skill === undefined && command.code === undefined) {
    return reject('roll/what', `Enter the Skill or attribute ${c.name} rolls, or a Die code.`);
  }
  const rolled = skillRoll(ctx, c, {
    skill: command.skill,
    code: command.code,
    kind: command.kind,
    purpose: 'on request (not an action)',
    declared: c.cs.declared,
  });
  if (rolled === null) return reject('roll/what', `Name the skill or attribute ${c.name} rolls.`);
  if (!Array.isArray(rolled)) return rolled;
  // 002: rolls outside an action (willpower or Presence against the scene's emotional effects, a
  // GM-called Perception roll) "do not count as character actions", and only "another character's
  // action" may be interrupted: a roll on request opens no moment to interrupt.
  return rolled.filter((e) => e.type !== 'opend6/roll-open');
}

function incapacitate(state: State, command: Opend6CommandOf<'incapacitate'>): Decision<Opend6Event> {
  const id = command.actor;
  const c = combatantOf(state, id);
  if (!c) return unknownCombatant(state, id);
  if (c.cs.unable) {
    return reject(
      'combatant/unable',
      `${c.name} is already ${c.cs.unable}; press Recover when ${c.name} can act again.`,
    );
  }
  const events: AnyEvent[] = [{ type: 'opend6/incapacitated', combatant: id, condition: command.condition }];
  if (state.status === 'running') {
    const left = c.cs.declared === null ? 0 : c.cs.declared - c.cs.used;
    if (left > 0)
      events.push({ type: 'opend6/actions-lost', combatant: id, count: left, reason: 'unable to act' });
    // 002: he "loses his action for that round if he hasn't taken it already" — a group member too:
    // his group still acts, without him, even if he recovers before its turn.
    if (turnAhead(state, c) && !lostAction(state, id, state.round)) {
      events.push({ type: 'opend6/turn-lost', combatant: id, reason: command.condition });
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

function recover(ctx: Ctx, command: Opend6CommandOf<'recover'>): Decision<Opend6Event> {
  const { state } = ctx;
  const id = command.actor;
  const c = combatantOf(state, id);
  if (!c) return unknownCombatant(state, id);
  if (!c.cs.unable) {
    return reject(
      'combatant/able',
      `${c.name} is able to act already; Recover is for a character who was made unconscious, immobile or unable to act (Incapacitate).`,
    );
  }
  const spend = command.characterPoints ?? 0;
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

/** The command dispatch: each command validated by its schema (commands.ts) before it comes here. */
export function decide(ctx: Ctx, command: Opend6Command): Decision<Opend6Event> {
  const type: string = command.type;
  switch (command.type) {
    case 'start':
      return start(ctx, command);
    case 'next': {
      // Points spent are checked against whether this `next` rolls; a `next` spending none needs neither.
      const spends = command.characterPoints !== undefined || command.fatePoints !== undefined;
      const refused =
        notRunning(ctx.state) ?? (spends ? checkPoints(ctx.state, command, willRoll(ctx.state)) : undefined);
      if (refused) return refused;
      return advance(ctx, command.characterPoints ?? {});
    }
    case 'declare':
      return declare(ctx, command);
    case 'act':
      return act(ctx, command);
    case 'interrupt':
      return interrupt(ctx, command);
    case 'resume':
      return resume(ctx, command);
    case 'result':
      return result(ctx.state);
    case 'roll':
      return roll(ctx, command);
    case 'incapacitate':
      return incapacitate(ctx.state, command);
    case 'recover':
      return recover(ctx, command);
    default:
      return reject(
        'command/unknown',
        `"${type}" is not an OpenD6 command; use one of: ${Object.keys(opend6Commands).join(', ')}.`,
      );
  }
}
