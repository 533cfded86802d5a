import {
  cannotStart,
  combatantOf,
  type Decision,
  type Instant,
  notRunning,
  reach,
  reject,
  schedule,
  turnEntry,
  unknownCombatant,
  unschedule,
} from '@roundkeeper/engine';
import { actionsOf, isContinuous, isVariable, ticksOf } from './catalog.js';
import { type TickCommand, type TickCommandOf, tickCommands } from './commands.js';
import type { AnyEvent, TickEvent } from './events.js';
import {
  advance,
  markerAt,
  markerEntry,
  place,
  placedAt,
  rollFirstTick,
  slotsAfterNow,
  tickNow,
} from './initiative.js';
import { legality, unknownAction } from './legal.js';
import type { Ctx } from './types.js';

/** Rules 1–3: everyone rolls onto the timeline at tick 0; the lowest marker acts. */
function start(ctx: Ctx, command: TickCommandOf<'start'>): Decision<TickEvent> {
  const { state } = ctx;
  const refused = cannotStart(state);
  if (refused) return refused;
  const fixed = command.initiative ?? {};
  for (const id of Object.keys(fixed)) if (!combatantOf(state, id)) return unknownCombatant(state, id);
  const events: AnyEvent[] = [{ type: 'encounter/started' }];
  const entries = [];
  // Everyone is placed at once: the same arrival, so a shared first tick goes by the Initiative stat.
  const arrival = state.rs.arrivals;
  // Group initiative: the first member of a group rolls; the others share its tick, right after it.
  const groups = new Map<string, { tick: number; at: Instant; count: number }>();
  for (const id of state.roster) {
    const c = combatantOf(state, id);
    if (!c?.active) continue;
    const group = state.options.groupInitiative === 'group' ? c.group : undefined;
    const lead = group ? groups.get(group) : undefined;
    if (group && lead) {
      const at = { round: 0, at: [...lead.at.at, lead.count] };
      const placed = placedAt(ctx, id, lead.tick, arrival, at);
      events.push(
        { type: 'tick/initiative', combatant: id, roll: lead.tick, tick: lead.tick, rolled: false },
        ...placed.events,
      );
      entries.push(placed.entry);
      lead.count++;
      continue;
    }
    const member = group
      ? state.roster.find((m) => state.combatants[m]?.group === group && Object.hasOwn(fixed, m))
      : undefined;
    const given = Object.hasOwn(fixed, id) ? fixed[id] : member !== undefined ? fixed[member] : undefined;
    const first = rollFirstTick(ctx, id, 0, given);
    const placed = group
      ? placedAt(ctx, id, first.tick, arrival, {
          round: 0,
          at: [...markerAt(state, id, first.tick, arrival).at, 0],
        })
      : place(ctx, id, first.tick, arrival);
    if (group) groups.set(group, { tick: first.tick, at: placed.entry.at, count: 1 });
    events.push(...first.events, ...placed.events);
    entries.push(placed.entry);
  }
  return [...events, ...advance(state, entries)];
}

/** Rule 4 (and 5): the action's ticks move the marker on; the next marker acts. */
function act(ctx: Ctx, command: TickCommandOf<'act'>): Decision<TickEvent> {
  const { state } = ctx;
  const id = command.actor;
  const c = combatantOf(state, id);
  if (!c) return unknownCombatant(state, id);
  const action = actionsOf(state).find((x) => x.id === command.action);
  if (!action) return reject('action/unknown', unknownAction(state, command.action));
  const legal = legality(state, id, action);
  if (!legal.ok) return reject(legal.code, legal.reason, { actor: id, action: action.id });
  if (command.ticks !== undefined && !isVariable(action)) {
    return reject(
      'tick/fixed-length',
      `${action.name} takes ${ticksOf(action, c)} ticks; leave Ticks empty (only an action of a length you choose takes it).`,
    );
  }
  const ticks = ticksOf(action, c, command.ticks);
  const onTurn = state.current === id;
  // Off the turn (an Active defense), the ticks are added to the marker where it stands.
  const from = onTurn ? tickNow(state) : (c.cs.tick ?? tickNow(state));
  const to = from + ticks;
  const events: AnyEvent[] = [
    {
      type: 'tick/acted',
      combatant: id,
      action: action.id,
      name: action.name,
      kind: action.kind,
      ticks,
      from,
      to,
      continuous: isContinuous(action),
      ...(command.target ? { target: command.target } : {}),
    },
  ];
  if (command.roll) {
    events.push({ type: 'dice/rolled', combatant: id, purpose: action.name, roll: ctx.roll(command.roll) });
  }
  const arrival = state.rs.arrivals;
  if (onTurn) {
    const label = isContinuous(action) ? `${c.name}: ${action.name} completes` : undefined;
    const placed = place(ctx, id, to, arrival, label);
    return [
      ...events,
      { type: 'turn/ended', combatant: id },
      ...placed.events,
      ...advance(state, [placed.entry]),
    ];
  }
  const old = state.agenda
    .filter((e) => e.kind === 'turn' && e.combatant === id)
    .map((e) => unschedule(e.id, 'moved'));
  return [...events, ...old, ...place(ctx, id, to, arrival).events];
}

/** Rule 5: the combatant whose turn it is holds, off the timeline; the next marker acts. */
function hold(ctx: Ctx, id: string): Decision<TickEvent> {
  const { state } = ctx;
  const c = combatantOf(state, id);
  if (!c) return unknownCombatant(state, id);
  const stopped = notRunning(state);
  if (stopped) return stopped;
  if (state.current !== id) {
    const now = state.current ? state.combatants[state.current]?.name : undefined;
    return reject(
      'turn/not-yours',
      now
        ? `It is ${now}'s turn; ${c.name} can wait on ${c.name}'s own turn.`
        : `Nobody is acting; ${c.name} can wait on ${c.name}'s own turn.`,
    );
  }
  return [{ type: 'tick/waiting', combatant: id }, { type: 'turn/ended', combatant: id }, ...advance(state)];
}

function next(ctx: Ctx): Decision<TickEvent> {
  const { state } = ctx;
  const stopped = notRunning(state);
  if (stopped) return stopped;
  if (!state.current) {
    return reject(
      'turn/none',
      'Nobody is on the timeline to act: a waiting combatant steps in with Act now, or add a combatant.',
    );
  }
  return hold(ctx, state.current);
}

/**
 * Rule 5: a waiting combatant steps in at the current tick and acts now, before the one whose turn it
 * was — who acts right after, still on this tick. Both come right after this moment, so the clock never
 * goes back.
 */
function stepIn(ctx: Ctx, command: TickCommandOf<'step-in'>): Decision<TickEvent> {
  const { state } = ctx;
  const id = command.actor;
  const c = combatantOf(state, id);
  if (!c) return unknownCombatant(state, id);
  const stopped = notRunning(state);
  if (stopped) return stopped;
  if (!c.active) return reject('combatant/defeated', `${c.name} is out of the fight.`);
  if (!c.cs.waiting) {
    return reject('tick/not-waiting', `${c.name} is not waiting; only a waiting combatant can step in.`);
  }
  const tick = tickNow(state);
  const arrival = state.rs.arrivals;
  const events: AnyEvent[] = [{ type: 'tick/stepped-in', combatant: id, tick }];
  const paused = state.current ? state.combatants[state.current] : undefined;
  // Right after this moment: the one stepping in, then the paused turn (and what was to come there, after).
  const { slots, moved } = slotsAfterNow(ctx, paused ? 2 : 1);
  events.push(...moved);
  if (paused) {
    const again = turnEntry(ctx, paused, slots[1]!);
    events.push({ type: 'turn/ended', combatant: paused.id }, schedule(again));
  }
  const entry = markerEntry(ctx, id, slots[0]!);
  events.push(schedule(entry), { type: 'tick/placed', combatant: id, tick, arrival }, ...reach(entry));
  return events;
}

/** Rule 5: the GM breaks off a continuous action; its marker stays where the action would have ended. */
function interrupt(ctx: Ctx, command: TickCommandOf<'interrupt'>): Decision<TickEvent> {
  const { state } = ctx;
  const c = combatantOf(state, command.actor);
  if (!c) return unknownCombatant(state, command.actor);
  const stopped = notRunning(state);
  if (stopped) return stopped;
  if (!state.options.interruptible) {
    return reject(
      'tick/not-interruptible',
      'Continuous actions run to their end in this fight; the GM can allow interruptions in the options.',
    );
  }
  const busy = c.cs.busy;
  if (!busy) return reject('tick/not-busy', `${c.name} is not in the middle of a continuous action.`);
  const entries = state.agenda.filter((e) => e.kind === 'turn' && e.combatant === c.id);
  // The marker stays on its tick: the label no longer says the action completes there.
  const relabelled = entries.map((e) => ({ ...e, id: ctx.newId('turn'), label: `${c.name}'s turn` }));
  return [
    { type: 'tick/interrupted', combatant: c.id, action: busy.action, name: busy.name },
    ...entries.map((e) => unschedule(e.id, 'interrupted')),
    ...relabelled.map(schedule),
  ];
}

/**
 * Rule 2's "a value entered by the GM", any time: the marker goes on a tick from the counter on, as a new
 * arrival there. On the combatant's own turn, the turn ends without an action; the lowest marker acts.
 */
function setTick(ctx: Ctx, command: TickCommandOf<'set-tick'>): Decision<TickEvent> {
  const { state } = ctx;
  const id = command.actor;
  const c = combatantOf(state, id);
  if (!c) return unknownCombatant(state, id);
  const stopped = notRunning(state);
  if (stopped) return stopped;
  if (!c.active)
    return reject('combatant/defeated', `${c.name} is out of the fight; revive ${c.name} first.`);
  const now = tickNow(state);
  if (command.tick < now) {
    return reject(
      'tick/past',
      `Tick ${command.tick} has passed; the counter is at ${now}: enter ${now} or later.`,
    );
  }
  if (c.cs.busy) {
    return reject(
      'tick/busy',
      `${c.name} is busy with ${c.cs.busy.name} until tick ${c.cs.busy.to}; interrupt it first.`,
    );
  }
  const old = state.agenda.filter((e) => e.kind === 'turn' && e.combatant === id);
  const arrival = state.rs.arrivals;
  // On the current tick, right after this moment (the clock never goes back, whatever the tie rule).
  const right = command.tick === now && state.now ? slotsAfterNow(ctx, 1, id) : null;
  const placed = right
    ? placedAt(ctx, id, now, arrival, right.slots[0]!)
    : place(ctx, id, command.tick, arrival);
  const events: AnyEvent[] = [{ type: 'tick/set', combatant: id, tick: command.tick }];
  events.push(...old.map((e) => unschedule(e.id, 'moved')));
  // What was to come right after this moment moves on behind it.
  if (right) events.push(...right.moved);
  const acting = state.current === id;
  if (acting) events.push({ type: 'turn/ended', combatant: id });
  events.push(...placed.events);
  if (acting || !state.current) {
    events.push(
      ...advance(
        state,
        [placed.entry, ...(right?.added ?? [])],
        [...old.map((e) => e.id), ...(right?.dropped ?? [])],
      ),
    );
  }
  return events;
}

/** The command dispatch: each command validated by its schema (commands.ts) before it comes here. */
export function decide(ctx: Ctx, command: TickCommand): Decision<TickEvent> {
  const type: string = command.type;
  switch (command.type) {
    case 'start':
      return start(ctx, command);
    case 'next':
      return next(ctx);
    case 'act':
      return act(ctx, command);
    case 'wait':
      return hold(ctx, command.actor);
    case 'step-in':
      return stepIn(ctx, command);
    case 'interrupt':
      return interrupt(ctx, command);
    case 'set-tick':
      return setTick(ctx, command);
    default:
      return reject(
        'command/unknown',
        `"${type}" is not a command of the tick timeline; use one of: ${Object.keys(tickCommands).join(', ')}.`,
      );
  }
}
