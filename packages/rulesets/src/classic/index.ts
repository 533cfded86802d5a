import {
  type ActionDef,
  type AgendaEntry,
  actorField,
  type Command,
  cannotStart,
  combatantField,
  combatantOf,
  compareInstants,
  type DecideContext,
  type Decision,
  diceField,
  type EncounterState,
  type EngineEvent,
  type Instant,
  type JsonObject,
  type LegalAction,
  nextEntry,
  notRunning,
  type Rejection,
  type Ruleset,
  reach,
  reject,
  schedule,
  type Timeline,
  type TimelineLane,
  unknownCombatant,
  unschedule,
} from '@roundkeeper/engine';
import { z } from 'zod';
import { CLASSIC_CATALOG, type Slot } from './catalog.js';
import { classicEvents } from './events.js';
import { classicAnalysis, classicPresent } from './present.js';
import { type ClassicCombatant, type ClassicTypes, classicOptions, classicStats } from './types.js';

export {
  type ClassicCombatant,
  type ClassicRound,
  type ClassicTypes,
  classicOptions,
  classicStats,
} from './types.js';

/**
 * `classic`: d20 + modifier, highest first; ties by modifier, then a roll-off. One action, one bonus
 * action and one reaction; delay and ready; late arrivals; conditions with durations; HP.
 * The smallest complete ruleset, and the example every other ruleset follows.
 */

type State = EncounterState<ClassicTypes>;
type Ctx = DecideContext<ClassicTypes>;

const actor = actorField();
const roll = diceField('Roll (dice)').optional().describe('Roll the attack or check here, e.g. 1d20+5.');
const initiativeValue = z.number().int().min(-100).max(200).meta({ label: 'Initiative' });
const commands = {
  start: z
    .object({
      initiative: z
        .record(actorField(), initiativeValue)
        .optional()
        .meta({ label: 'Initiative rolled at the table' }),
    })
    .meta({ label: 'Start the fight', description: 'Roll initiative and begin round 1.', gm: true }),
  next: z.object({}).meta({ label: 'Next turn', description: 'End the current turn.' }),
  act: z.object({
    actor,
    action: z.string().min(1).max(64).meta({ label: 'Action', hidden: true }),
    target: combatantField('Target').optional(),
    roll,
  }),
  delay: z.object({ actor }).meta({ label: 'Delay', description: 'Step out of the order; come back later.' }),
  resume: z.object({ actor }).meta({ label: 'Act now', description: 'Take the delayed turn now.' }),
  ready: z
    .object({
      actor,
      action: z.string().min(1).max(64).meta({ label: 'Action to ready', from: 'actions' }),
      trigger: z.string().min(1).max(200).meta({ label: 'Trigger', description: 'What sets it off.' }),
    })
    .meta({ label: 'Ready an action', description: 'Hold an action for a trigger; it uses the reaction.' }),
  trigger: z
    .object({ actor, roll })
    .meta({ label: 'Take the readied action', description: 'Its trigger happened.' }),
  'set-initiative': z
    .object({ actor, value: initiativeValue })
    .meta({ label: 'Set initiative', description: 'Move a combatant in the order.', gm: true }),
};

const fresh = (): ClassicCombatant['used'] => ({ action: false, bonus: false, reaction: false });

function catalog(state: State): ActionDef[] {
  return [...CLASSIC_CATALOG, ...state.customActions];
}

/** An action the catalog does not have: the ones it has, by name. */
function unknownAction(state: State, action: unknown): string {
  const names = catalog(state).map((x) => x.name);
  return `There is no action "${String(action)}" here; pick one of ${names.join(', ')}.`;
}

function slotOf(action: ActionDef): Slot {
  const k = action.kind as Slot;
  return k === 'action' || k === 'bonus' || k === 'reaction' || k === 'free' ? k : 'action';
}

/** Rolls initiative for the given combatants and breaks full ties with roll-offs. */
function rollInitiative(ctx: Ctx, ids: string[], fixed: Record<string, number> = {}): EngineEvent[] {
  const { state } = ctx;
  const events: EngineEvent[] = [];
  const totals = new Map<string, number>();
  for (const id of ids) {
    const c = state.combatants[id]!;
    if (Object.hasOwn(fixed, id)) {
      totals.set(id, fixed[id]!);
      events.push({ type: 'classic/initiative', combatant: id, total: fixed[id]!, rolled: false });
      continue;
    }
    const roll = ctx.roll(`${state.options.initiativeDice}+@init`, { init: c.stats.initiative });
    totals.set(id, roll.total);
    events.push({
      type: 'dice/rolled',
      combatant: id,
      purpose: 'initiative',
      roll: roll as unknown as JsonObject,
    });
    events.push({ type: 'classic/initiative', combatant: id, total: roll.total, rolled: true });
  }
  // Ties on total and modifier roll off (d20, again until broken); existing combatants keep their spot.
  const keys = new Map<string, number[]>();
  const groups = new Map<string, string[]>();
  for (const id of ids) {
    const modifier = state.combatants[id]!.stats.initiative;
    keys.set(id, [-totals.get(id)!, -modifier]);
    const k = `${totals.get(id)}:${modifier}`;
    groups.set(k, [...(groups.get(k) ?? []), id]);
  }
  for (const tied of groups.values()) rollOff(ctx, tied, keys, events);
  for (const id of ids) events.push({ type: 'classic/key', combatant: id, key: keys.get(id)! });
  return events;
}

/** Tied combatants each roll a d20; higher goes first; those still tied roll again among themselves. */
function rollOff(ctx: Ctx, tied: string[], keys: Map<string, number[]>, events: EngineEvent[]): void {
  if (tied.length < 2) return;
  const rolls = tied.map(() => ctx.rng.int(1, 20));
  events.push({ type: 'classic/roll-off', combatants: tied, rolls });
  const byValue = new Map<number, string[]>();
  tied.forEach((id, i) => {
    keys.get(id)!.push(-rolls[i]!);
    byValue.set(rolls[i]!, [...(byValue.get(rolls[i]!) ?? []), id]);
  });
  for (const again of byValue.values()) rollOff(ctx, again, keys, events);
}

function turnEntry(ctx: Ctx, id: string, round: number, key: number[]): AgendaEntry {
  const c = ctx.state.combatants[id]!;
  return {
    id: ctx.newId('turn'),
    at: { round, at: key },
    kind: 'turn',
    combatant: id,
    label: `${c.name}'s turn`,
    ...(c.hidden ? { secret: true } : {}),
  };
}

/**
 * A new initiative set mid-round: the combatant's turn still to come this round moves to its new place
 * when that place is still ahead. A turn already taken, or a place the round has passed, keeps this
 * round's order; the new one counts from the next round.
 */
function movedTurn(ctx: Ctx, id: string, key: number[]): EngineEvent[] {
  const { state } = ctx;
  if (state.status !== 'running') return [];
  const pending = state.agenda.find(
    (e) => e.kind === 'turn' && e.combatant === id && e.at.round === state.round,
  );
  if (!pending) return [];
  const entry = turnEntry(ctx, id, state.round, key);
  if (state.now && compareInstants(entry.at, state.now) <= 0) return [];
  return [unschedule(pending.id, 'moved'), schedule(entry)];
}

/** Schedules a round's turns from the keys (events carry the entries, so the order is a fact). */
function scheduleRound(ctx: Ctx, round: number, keys: Map<string, number[]>): EngineEvent[] {
  const events: EngineEvent[] = [{ type: 'round/started', round }];
  const entries: AgendaEntry[] = [];
  for (const id of ctx.state.roster) {
    const c = ctx.state.combatants[id]!;
    const key = keys.get(id) ?? c.cs.key;
    if (!c.active || !key || c.cs.delaying) continue;
    entries.push(turnEntry(ctx, id, round, key));
  }
  entries.sort((a, b) => compareInstants(a.at, b.at));
  for (const e of entries) events.push(schedule(e));
  const first = entries[0];
  if (first) events.push(...reach(first));
  return events;
}

function keysOf(state: State): Map<string, number[]> {
  const m = new Map<string, number[]>();
  for (const id of state.roster) {
    const k = state.combatants[id]!.cs.key;
    if (k) m.set(id, k);
  }
  return m;
}

/** Ends the current turn and starts the next one, or the next round. */
function advance(ctx: Ctx): EngineEvent[] {
  const { state } = ctx;
  const events: EngineEvent[] = [];
  if (state.current) events.push({ type: 'turn/ended', combatant: state.current });
  const next = nextEntry(state, (e) => e.kind === 'turn' && e.at.round === state.round);
  if (next) return [...events, ...reach(next)];
  events.push({ type: 'round/ended', round: state.round });
  if (state.options.rerollEachRound) {
    const ids = state.roster.filter((id) => state.combatants[id]!.active);
    const rolled = rollInitiative(ctx, ids);
    const keys = new Map<string, number[]>();
    for (const e of rolled) if (e.type === 'classic/key') keys.set(e.combatant as string, e.key as number[]);
    return [...events, ...rolled, ...scheduleRound(ctx, state.round + 1, keys)];
  }
  return [...events, ...scheduleRound(ctx, state.round + 1, keysOf(state))];
}

function requireCurrent(state: State, id: string): Rejection | undefined {
  const c = combatantOf(state, id);
  if (!c) return unknownCombatant(state, id);
  const stopped = notRunning(state);
  if (stopped) return stopped;
  if (state.current !== id) {
    const now = state.current ? state.combatants[state.current]?.name : 'nobody';
    return reject('turn/not-yours', `It is ${now}'s turn, not ${c.name}'s.`, { actor: id });
  }
  return undefined;
}

function legality(
  state: State,
  id: string,
  action: ActionDef,
): { ok: true } | { ok: false; code: string; reason: string } {
  const c = state.combatants[id];
  if (!c) return { ok: false, code: 'combatant/unknown', reason: `There is no combatant "${id}".` };
  const stopped = notRunning(state);
  if (stopped) return { ok: false, code: stopped.code, reason: stopped.message };
  if (!c.active) return { ok: false, code: 'combatant/defeated', reason: `${c.name} is out of the fight.` };
  const slot = slotOf(action);
  if (slot === 'reaction') {
    if (state.current === id) {
      return {
        ok: false,
        code: 'reaction/own-turn',
        reason: `A reaction is taken on someone else's turn, not on ${c.name}'s own.`,
      };
    }
    if (c.cs.used.reaction) {
      return {
        ok: false,
        code: 'reaction/used',
        reason: `${c.name} has already used a reaction since their last turn.`,
      };
    }
    return { ok: true };
  }
  if (state.current !== id) {
    const now = state.current ? (state.combatants[state.current]?.name ?? 'someone else') : 'nobody';
    return {
      ok: false,
      code: 'turn/not-yours',
      reason: `It is ${now}'s turn; ${action.name} is taken on ${c.name}'s own turn.`,
    };
  }
  if (slot === 'action' && c.cs.used.action) {
    return { ok: false, code: 'action/used', reason: `${c.name} has already used their action this turn.` };
  }
  if (slot === 'bonus' && c.cs.used.bonus) {
    return {
      ok: false,
      code: 'bonus/used',
      reason: `${c.name} has already used their bonus action this turn.`,
    };
  }
  return { ok: true };
}

function decide(ctx: Ctx, command: Command): Decision {
  const { state } = ctx;
  switch (command.type) {
    case 'start': {
      const refused = cannotStart(state);
      if (refused) return refused;
      const ids = state.roster.filter((id) => state.combatants[id]!.active);
      const fixed = (command.initiative ?? {}) as Record<string, number>;
      for (const id of Object.keys(fixed)) if (!combatantOf(state, id)) return unknownCombatant(state, id);
      const rolled = rollInitiative(ctx, ids, fixed);
      const keys = new Map<string, number[]>();
      for (const e of rolled)
        if (e.type === 'classic/key') keys.set(e.combatant as string, e.key as number[]);
      return [{ type: 'encounter/started' }, ...rolled, ...scheduleRound(ctx, 1, keys)];
    }
    case 'next': {
      const stopped = notRunning(state);
      if (stopped) return stopped;
      return advance(ctx);
    }
    case 'act': {
      const id = command.actor as string;
      const c = combatantOf(state, id);
      if (!c) return unknownCombatant(state, id);
      const action = catalog(state).find((x) => x.id === command.action);
      if (!action) {
        return reject('action/unknown', unknownAction(state, command.action));
      }
      const legal = legality(state, id, action);
      if (!legal.ok) return reject(legal.code, legal.reason, { actor: id, action: action.id });
      const events: EngineEvent[] = [];
      const ev: EngineEvent = {
        type: 'classic/acted',
        combatant: id,
        action: action.id,
        slot: slotOf(action),
      };
      if (command.target) ev.target = command.target as string;
      events.push(ev);
      if (command.roll) {
        const roll = ctx.roll(command.roll as string, { init: c.stats.initiative });
        events.push({
          type: 'dice/rolled',
          combatant: id,
          purpose: action.name,
          roll: roll as unknown as JsonObject,
        });
      }
      return events;
    }
    case 'delay': {
      const id = command.actor as string;
      const refused = requireCurrent(state, id);
      if (refused) return refused;
      const c = state.combatants[id]!;
      if (c.cs.used.action || c.cs.used.bonus) {
        return reject(
          'delay/acted',
          `${c.name} has already acted this turn; delay before taking any action.`,
        );
      }
      return [{ type: 'classic/delayed', combatant: id }, ...advance(ctx)];
    }
    case 'resume': {
      const id = command.actor as string;
      const c = combatantOf(state, id);
      if (!c) return unknownCombatant(state, id);
      if (!c.cs.delaying)
        return reject(
          'delay/not-delaying',
          `${c.name} is not delaying; only a delaying combatant can step in.`,
        );
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
      const events: EngineEvent[] = [{ type: 'classic/resumed', combatant: id, key }];
      if (state.current) events.push({ type: 'turn/ended', combatant: state.current });
      events.push(schedule(entry), ...reach(entry));
      return events;
    }
    case 'ready': {
      const id = command.actor as string;
      const refused = requireCurrent(state, id);
      if (refused) return refused;
      const c = state.combatants[id]!;
      if (c.cs.used.action)
        return reject('action/used', `Readying takes ${c.name}'s action, which is already used this turn.`);
      const action = catalog(state).find((x) => x.id === command.action);
      if (!action) return reject('action/unknown', unknownAction(state, command.action));
      return [
        { type: 'classic/readied', combatant: id, action: action.id, trigger: command.trigger as string },
        ...advance(ctx),
      ];
    }
    case 'trigger': {
      const id = command.actor as string;
      const c = combatantOf(state, id);
      if (!c) return unknownCombatant(state, id);
      if (!c.cs.readied) return reject('ready/none', `${c.name} has no readied action to trigger.`);
      if (c.cs.used.reaction)
        return reject('reaction/used', `${c.name} has already used a reaction since their last turn.`);
      const events: EngineEvent[] = [
        {
          type: 'classic/triggered',
          combatant: id,
          action: c.cs.readied.action,
          trigger: c.cs.readied.trigger,
        },
      ];
      if (command.roll) {
        const roll = ctx.roll(command.roll as string, { init: c.stats.initiative });
        events.push({
          type: 'dice/rolled',
          combatant: id,
          purpose: c.cs.readied.action,
          roll: roll as unknown as JsonObject,
        });
      }
      return events;
    }
    case 'set-initiative': {
      const id = command.actor as string;
      const c = combatantOf(state, id);
      if (!c) return unknownCombatant(state, id);
      const value = command.value as number;
      const key = [-value, -c.stats.initiative];
      return [
        { type: 'classic/initiative', combatant: id, total: value, rolled: false },
        { type: 'classic/key', combatant: id, key },
        ...movedTurn(ctx, id, key),
      ];
    }
    default:
      return reject('command/unknown', `"${command.type}" is not a classic command.`);
  }
}

function patchCs(state: State, id: string, patch: Partial<ClassicCombatant>): State {
  const c = state.combatants[id];
  if (!c) return state;
  return { ...state, combatants: { ...state.combatants, [id]: { ...c, cs: { ...c.cs, ...patch } } } };
}

function evolve(state: State, event: EngineEvent): State | undefined {
  const id = event.combatant as string;
  switch (event.type) {
    case 'classic/initiative':
      return patchCs(state, id, { initiative: event.total as number });
    case 'classic/key':
      return patchCs(state, id, { key: event.key as number[] });
    case 'classic/roll-off':
      return state;
    case 'classic/acted': {
      const c = state.combatants[id];
      if (!c) return state;
      const slot = event.slot as Slot;
      if (slot === 'free') return state;
      return patchCs(state, id, { used: { ...c.cs.used, [slot]: true } });
    }
    case 'classic/delayed':
      return patchCs(state, id, { delaying: true });
    case 'classic/resumed':
      return patchCs(state, id, { delaying: false, key: event.key as number[] });
    case 'classic/readied': {
      const c = state.combatants[id]!;
      return patchCs(state, id, {
        readied: { action: event.action as string, trigger: event.trigger as string },
        used: { ...c.cs.used, action: true },
      });
    }
    case 'classic/triggered': {
      const c = state.combatants[id]!;
      return patchCs(state, id, { readied: null, used: { ...c.cs.used, reaction: true } });
    }
    default:
      return undefined;
  }
}

/** Turn bookkeeping that follows from core events: a new turn refreshes the action economy. */
function react(ctx: Ctx, event: EngineEvent): EngineEvent[] {
  const { state } = ctx;
  if (event.type === 'turn/started') {
    const c = state.combatants[event.combatant as string];
    if (!c) return [];
    const out: EngineEvent[] = [{ type: 'classic/refreshed', combatant: c.id }];
    if (c.cs.readied) out.push({ type: 'classic/ready-lapsed', combatant: c.id });
    return out;
  }
  // Late arrival: roll initiative and join this round if their place in the order is still ahead.
  if (event.type === 'combatant/added' && state.status === 'running') {
    const c = event.combatant as { id: string; hidden?: boolean };
    const rolled = rollInitiative(ctx, [c.id]);
    const keyEvent = rolled.find((e) => e.type === 'classic/key');
    const key = (keyEvent?.key as number[]) ?? [0];
    const entry = turnEntry(ctx, c.id, state.round, key);
    const ahead = !state.now || compareInstants(entry.at, state.now) > 0;
    return [
      ...rolled,
      ...(ahead ? [schedule(entry)] : [{ type: 'classic/joins-next-round', combatant: c.id }]),
    ];
  }
  if (event.type === 'combatant/defeated') {
    return state.agenda
      .filter((e) => e.combatant === event.combatant)
      .map((e) => unschedule(e.id, 'defeated'));
  }
  return [];
}

function evolveAll(state: State, event: EngineEvent): State | undefined {
  switch (event.type) {
    case 'classic/refreshed': {
      const c = state.combatants[event.combatant as string]!;
      return patchCs(state, c.id, { used: fresh() });
    }
    case 'classic/ready-lapsed':
      return patchCs(state, event.combatant as string, { readied: null });
    case 'classic/joins-next-round':
      return state;
    case 'round/started':
      return state;
    default:
      return evolve(state, event);
  }
}

function legalActions(state: State, id: string): LegalAction[] {
  return catalog(state).map((action) => {
    const l = legality(state, id, action);
    return l.ok
      ? { action, enabled: true, cost: action.cost }
      : { action, enabled: false, reason: l.reason, code: l.code, cost: action.cost };
  });
}

function timeline(state: State): Timeline {
  const round = Math.max(state.round, 1);
  // Slots: everyone with a place in the order, by key.
  const ordered = state.roster
    .map((id) => state.combatants[id]!)
    .filter((c) => c.cs.key)
    .sort((a, b) => compareInstants({ round: 0, at: a.cs.key! }, { round: 0, at: b.cs.key! }));
  const labels: Record<number, string> = {};
  ordered.forEach((c, i) => {
    labels[i + 1] = c.name;
  });
  const currentIndex = state.current ? ordered.findIndex((c) => c.id === state.current) : -1;
  const lanes: TimelineLane[] = ordered.map((c, i) => {
    const done = currentIndex >= 0 ? i < currentIndex : false;
    const upcoming = state.agenda.some((e) => e.combatant === c.id && e.at.round === round);
    const kind = c.cs.delaying ? 'delay' : 'turn';
    const label = `${c.name} (${c.cs.initiative ?? '?'})`;
    return {
      id: c.id,
      label: c.name,
      side: c.side,
      spans: [
        { round, from: i + 1, to: i + 1, kind, label, ...(upcoming && !done ? { planned: true } : {}) },
      ],
      markers: state.current === c.id ? [{ round, at: i + 1, kind: 'turn', label: 'acting' }] : [],
    };
  });
  return {
    axis: { unit: 'turn', from: 1, to: Math.max(ordered.length, 1), labels },
    rounds: [round],
    now: currentIndex >= 0 ? { round, at: currentIndex + 1 } : null,
    lanes,
  };
}

function describeEvent(event: EngineEvent, state: State): string | null {
  const name = (id: unknown) => (typeof id === 'string' ? (state.combatants[id]?.name ?? id) : '?');
  switch (event.type) {
    case 'classic/initiative':
      return event.rolled ? null : `${name(event.combatant)}'s initiative is set to ${String(event.total)}.`;
    case 'classic/roll-off':
      return `Tie: ${(event.combatants as string[]).map(name).join(' and ')} roll off (${(event.rolls as number[]).join(', ')}).`;
    case 'classic/acted': {
      const action = catalog(state).find((a) => a.id === event.action)?.name ?? String(event.action);
      return `${name(event.combatant)}: ${action}${event.target ? ` → ${name(event.target)}` : ''}.`;
    }
    case 'classic/delayed':
      return `${name(event.combatant)} delays.`;
    case 'classic/resumed':
      return `${name(event.combatant)} steps in and acts now.`;
    case 'classic/readied':
      return `${name(event.combatant)} readies ${String(event.action)} (trigger: ${String(event.trigger)}).`;
    case 'classic/triggered':
      return `${name(event.combatant)}'s readied ${String(event.action)} goes off.`;
    case 'classic/joins-next-round':
      return `${name(event.combatant)}'s place in the order has passed; they act from next round.`;
    case 'classic/key':
    case 'classic/refreshed':
    case 'classic/ready-lapsed':
      return null;
    default:
      return null;
  }
}

export const classic: Ruleset<ClassicTypes> = {
  id: 'classic',
  version: 1,
  name: 'Classic',
  summary: 'd20 + modifier, highest first; one action, one bonus action, one reaction.',
  optionsSchema: classicOptions,
  statsSchema: classicStats,
  commands,
  events: classicEvents,
  clock: {
    unit: 'turn',
    describe(state: State, at: Instant): string {
      const entry = state.current ? state.combatants[state.current] : undefined;
      return `Round ${at.round}${entry ? ` · ${entry.name}'s turn` : ''}`;
    },
  },
  init: () => ({}),
  initCombatant: () => ({ initiative: null, key: null, delaying: false, readied: null, used: fresh() }),
  catalog: () => CLASSIC_CATALOG,
  decide,
  evolve: evolveAll,
  react,
  legalActions,
  timeline,
  describeEvent,
  present: classicPresent,
  analysis: classicAnalysis,
};
