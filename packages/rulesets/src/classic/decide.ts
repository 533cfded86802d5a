import {
  type AgendaEntry,
  type Combatant,
  cannotStart,
  combatantOf,
  type Decision,
  isRejection,
  movedTurn,
  notRunning,
  type Rejection,
  reach,
  reject,
  schedule,
  unknownCombatant,
} from '@roundkeeper/engine';
import { DEATH_SAVE, slotOf } from './catalog.js';
import { type ClassicCommand, type ClassicCommandOf, classicCommands } from './commands.js';
import type { AnyEvent, ClassicEvent } from './events.js';
import { keysFrom, rollInitiative } from './initiative.js';
import { catalog, downReason, legality, unknownAction } from './legal.js';
import { saves } from './react.js';
import { advance, scheduleRound, turnEntry } from './round.js';
import type { ClassicTypes, Ctx, State } from './types.js';

/** The combatant whose turn it is, as the command says; or why not. */
function requireCurrent(state: State, id: string): Combatant<ClassicTypes> | Rejection {
  const c = combatantOf(state, id);
  if (!c) return unknownCombatant(state, id);
  const stopped = notRunning(state);
  if (stopped) return stopped;
  if (state.current !== id) {
    const now = state.current ? state.combatants[state.current]?.name : 'nobody';
    return reject('turn/not-yours', `It is ${now}'s turn, not ${c.name}'s.`, { actor: id });
  }
  return c;
}

function start(ctx: Ctx, command: ClassicCommandOf<'start'>): Decision<ClassicEvent> {
  const { state } = ctx;
  const refused = cannotStart(state);
  if (refused) return refused;
  const ids = state.roster.filter((id) => combatantOf(state, id)?.active);
  const fixed = command.initiative ?? {};
  for (const id of Object.keys(fixed)) if (!combatantOf(state, id)) return unknownCombatant(state, id);
  const rolled = rollInitiative(ctx, ids, fixed);
  const events: AnyEvent[] = [
    { type: 'encounter/started' },
    ...rolled,
    ...scheduleRound(ctx, 1, keysFrom(rolled)),
  ];
  return events;
}

function act(ctx: Ctx, command: ClassicCommandOf<'act'>): Decision<ClassicEvent> {
  const { state } = ctx;
  const id = command.actor;
  const c = combatantOf(state, id);
  if (!c) return unknownCombatant(state, id);
  const action = catalog(state).find((x) => x.id === command.action);
  if (!action) return reject('action/unknown', unknownAction(state, command.action));
  const legal = legality(state, id, action);
  if (!legal.ok) return reject(legal.code, legal.reason, { actor: id, action: action.id });
  if (action.id === DEATH_SAVE) return deathSave(ctx, c);
  const events: AnyEvent[] = [
    {
      type: 'classic/acted',
      combatant: id,
      action: action.id,
      slot: slotOf(action),
      ...(command.target ? { target: command.target } : {}),
    },
  ];
  if (command.roll) {
    const roll = ctx.roll(command.roll, { init: c.stats.initiative });
    events.push({ type: 'dice/rolled', combatant: id, purpose: action.name, roll: roll });
  }
  return events;
}

/**
 * A downed PC's death save: a d20, 10 or more a success, a 1 two failures, a 20 back on their feet with
 * 1 HP. It takes the turn's action.
 */
function deathSave(ctx: Ctx, c: Combatant<ClassicTypes>): Decision<ClassicEvent> {
  const dying = c.cs.dying ?? { successes: 0, failures: 0, stable: false };
  const roll = ctx.roll('1d20');
  const face = roll.total;
  const events: AnyEvent[] = [
    { type: 'classic/acted', combatant: c.id, action: DEATH_SAVE, slot: 'action' },
    { type: 'dice/rolled', combatant: c.id, purpose: 'Death save', roll },
  ];
  if (face === 20) {
    const hp = c.hp ?? { current: 0, max: 1, temp: 0 };
    return [...events, { type: 'hp/changed', combatant: c.id, from: hp, hp: { ...hp, current: 1 } }];
  }
  const successes = dying.successes + (face >= 10 ? 1 : 0);
  const failures = dying.failures + (face === 1 ? 2 : face < 10 ? 1 : 0);
  return [...events, ...saves(c.id, successes, failures, face)];
}

/** Why a downed combatant cannot do this, or undefined when it is up. */
function isDown(c: Combatant<ClassicTypes>): Rejection | undefined {
  const reason = downReason(c);
  return reason ? reject('combatant/down', reason, { actor: c.id }) : undefined;
}

function delay(ctx: Ctx, command: ClassicCommandOf<'delay'>): Decision<ClassicEvent> {
  const c = requireCurrent(ctx.state, command.actor);
  if (isRejection(c)) return c;
  const downed = isDown(c);
  if (downed) return downed;
  if (c.cs.used.action || c.cs.used.bonus) {
    return reject('delay/acted', `${c.name} has already acted this turn; delay before taking any action.`);
  }
  return [{ type: 'classic/delayed', combatant: c.id }, ...advance(ctx)];
}

function resume(ctx: Ctx, command: ClassicCommandOf<'resume'>): Decision<ClassicEvent> {
  const { state } = ctx;
  const id = command.actor;
  const c = combatantOf(state, id);
  if (!c) return unknownCombatant(state, id);
  if (!c.cs.delaying)
    return reject('delay/not-delaying', `${c.name} is not delaying; only a delaying combatant can step in.`);
  if (state.current === id) return reject('delay/already-acting', `${c.name} is already acting.`);
  // 'Delay': the combatant acts after the current turn; their place in the order becomes that moment.
  const base = state.now ?? { round: state.round, at: [] };
  const key = [...base.at, 1];
  const entry: AgendaEntry = {
    id: ctx.newId('turn'),
    at: { round: state.round, at: key },
    kind: 'turn',
    combatant: id,
    label: `${c.name}'s turn (delayed)`,
  };
  const events: AnyEvent[] = [{ type: 'classic/resumed', combatant: id, key }];
  if (state.current) events.push({ type: 'turn/ended', combatant: state.current });
  events.push(schedule(entry), ...reach(entry));
  return events;
}

function ready(ctx: Ctx, command: ClassicCommandOf<'ready'>): Decision<ClassicEvent> {
  const { state } = ctx;
  const c = requireCurrent(state, command.actor);
  if (isRejection(c)) return c;
  const downed = isDown(c);
  if (downed) return downed;
  if (c.cs.used.action)
    return reject('action/used', `Readying takes ${c.name}'s action, which is already used this turn.`);
  const action = catalog(state).find((x) => x.id === command.action);
  if (!action) return reject('action/unknown', unknownAction(state, command.action));
  return [
    { type: 'classic/readied', combatant: c.id, action: action.id, trigger: command.trigger },
    ...advance(ctx),
  ];
}

function trigger(ctx: Ctx, command: ClassicCommandOf<'trigger'>): Decision<ClassicEvent> {
  const { state } = ctx;
  const id = command.actor;
  const c = combatantOf(state, id);
  if (!c) return unknownCombatant(state, id);
  const downed = isDown(c);
  if (downed) return downed;
  const readied = c.cs.readied;
  if (!readied) return reject('ready/none', `${c.name} has no readied action to trigger.`);
  if (c.cs.used.reaction)
    return reject('reaction/used', `${c.name} has already used a reaction since their last turn.`);
  const events: AnyEvent[] = [
    { type: 'classic/triggered', combatant: id, action: readied.action, trigger: readied.trigger },
  ];
  if (command.roll) {
    const roll = ctx.roll(command.roll, { init: c.stats.initiative });
    events.push({ type: 'dice/rolled', combatant: id, purpose: readied.action, roll: roll });
  }
  return events;
}

/** A GM's initiative: it orders the next rounds, and this one too when the combatant's turn is still ahead. */
function setInitiative(ctx: Ctx, command: ClassicCommandOf<'set-initiative'>): Decision<ClassicEvent> {
  const { state } = ctx;
  const id = command.actor;
  const c = combatantOf(state, id);
  if (!c) return unknownCombatant(state, id);
  const value = command.value;
  const key = [-value, -c.stats.initiative];
  return [
    { type: 'classic/initiative', combatant: id, total: value, rolled: false },
    { type: 'classic/key', combatant: id, key },
    ...movedTurn(state, turnEntry(ctx, id, state.round, key)),
  ];
}

/** The command dispatch: each command validated by its schema (commands.ts) before it comes here. */
export function decide(ctx: Ctx, command: ClassicCommand): Decision<ClassicEvent> {
  const type: string = command.type;
  switch (command.type) {
    case 'start':
      return start(ctx, command);
    case 'next':
      return notRunning(ctx.state) ?? advance(ctx);
    case 'act':
      return act(ctx, command);
    case 'delay':
      return delay(ctx, command);
    case 'resume':
      return resume(ctx, command);
    case 'ready':
      return ready(ctx, command);
    case 'trigger':
      return trigger(ctx, command);
    case 'set-initiative':
      return setInitiative(ctx, command);
    default:
      return reject(
        'command/unknown',
        `"${type}" is not a classic command; use one of: ${Object.keys(classicCommands).join(', ')}.`,
      );
  }
}
