import {
  type AgendaEntry,
  actorField,
  type Command,
  cannotStart,
  combatantField,
  type Decision,
  type EngineEvent,
  type Instant,
  type JsonObject,
  notRunning,
  notStarted,
  type Ruleset,
  reach,
  reject,
  schedule,
  unknownCombatant,
  unschedule,
  type Viewer,
} from '@roundkeeper/engine';
import { z } from 'zod';
import { act, legalActions } from './actions.js';
import { builtInCatalog, validateCustomAction } from './catalog.js';
import { describeInstant, shiftTuple } from './clock.js';
import { describeEvent } from './describe.js';
import { sixSecondEvents } from './events.js';
import { contest, insertLateArrival, rollInitiative } from './initiative.js';
import { sixSecondPresent } from './present.js';
import { timeline } from './timeline.js';
import { complete, dueEffects, endTurn, reproject, spendSeconds, startRound, turnEntry } from './turns.js';
import {
  type Ctx,
  type PendingEffect,
  type SixSecondCombatant,
  type SixSecondTypes,
  type SpentSeconds,
  type State,
  sixSecondOptions,
  sixSecondStats,
} from './types.js';

export { SIX_SECOND_CATALOG } from './catalog.js';
export type { SixSecondCombatant, SixSecondRound, SixSecondTypes } from './types.js';

/**
 * `six-second` (001): Initiative = Reflex check + Dexterity, ties roll again; every round each character
 * gets a turn of six seconds to spend on actions that take whole seconds, a long action running on into
 * the next turn; delays count down the acting character's own seconds; a delayed turn may interrupt
 * someone else's between two of their actions.
 */

const actor = actorField();
const commands = {
  start: z
    .object({
      initiative: z
        .record(actorField(), z.number().int().min(-1000).max(1000).meta({ label: 'Initiative' }))
        .optional()
        .meta({ label: 'Initiative rolled at the table', description: 'The others are rolled.' }),
    })
    .meta({ label: 'Start the fight', description: 'Roll Initiative and begin round 1.', gm: true }),
  next: z.object({}).meta({ label: 'Next turn', description: 'End the current turn.' }),
  act: z
    .object({
      actor,
      action: z.string().min(1).max(64).meta({ label: 'Action', hidden: true }),
      seconds: z
        .number()
        .int()
        .min(0)
        .max(600)
        .optional()
        .meta({ label: 'Seconds', description: 'A longer time, for actions marked "or longer".' }),
      delay: z.number().int().min(0).max(600).optional().meta({
        label: 'Delay (seconds)',
        description:
          'Seconds after the action completes before its effect happens (a spell "that has a 2-second delay").',
      }),
      effect: z
        .string()
        .trim()
        .min(1)
        .max(80)
        .optional()
        .meta({ label: 'Effect', description: 'What takes effect after the delay (e.g. "Fireball").' }),
      target: combatantField('Target').optional(),
    })
    .meta({ label: 'Take an action', description: "One of the catalog's actions, in the turn's seconds." }),
  delay: z
    .object({ actor })
    .meta({ label: 'Delay', description: 'Skip the turn before acting, to take it later.' }),
  'take-turn': z.object({ actor }).meta({
    label: 'Take the delayed turn',
    description: "Now, even between two of someone else's actions.",
  }),
  contest: z
    .object({
      actors: z.array(actor).min(2).max(20).meta({
        label: 'Who contests',
        description: 'The characters who contest who does something first (in or out of the fight).',
      }),
      about: z
        .string()
        .trim()
        .min(1)
        .max(80)
        .optional()
        .meta({ label: 'About', description: 'What they contest, e.g. "who grabs the cursed item first".' }),
    })
    .meta({ label: 'Contest', description: 'Reflex checks to see who does something first.' }),
};

function decide(ctx: Ctx, command: Command): Decision {
  const { state } = ctx;
  switch (command.type) {
    case 'start': {
      const refused = cannotStart(state);
      if (refused) return refused;
      const ids = state.roster.filter((id) => state.combatants[id]!.active);
      const fixed = (command.initiative ?? {}) as Record<string, number>;
      for (const id of Object.keys(fixed)) if (!state.combatants[id]) return unknownCombatant(state, id);
      const rolled = rollInitiative(ctx, ids, fixed);
      const order = rolled.find((e) => e.type === 'six-second/order')!.order as string[];
      return [{ type: 'encounter/started' }, ...rolled, ...startRound(ctx, 1, order)];
    }
    case 'next': {
      const stopped = notRunning(state);
      if (stopped) return stopped;
      return endTurn(ctx, { elapse: true });
    }
    case 'act':
      return act(ctx, command);
    case 'delay': {
      const id = command.actor as string;
      const c = state.combatants[id];
      if (!c) return unknownCombatant(state, id);
      const stopped = notRunning(state);
      if (stopped) return stopped;
      if (state.current !== id) {
        const now = state.current ? (state.combatants[state.current]?.name ?? 'someone else') : 'nobody';
        return reject('turn/not-yours', `It is ${now}'s turn; ${c.name} can delay only on their own turn.`);
      }
      // 001: "A character can, on his turn, choose not to act. Instead, he can delay his turn until later."
      if (c.cs.secondsUsed > 0) {
        return reject(
          'delay/acted',
          `${c.name} has already spent ${c.cs.secondsUsed} s this turn; a turn can be delayed only before acting.`,
        );
      }
      if ((c.cs.base?.length ?? 1) > 1) {
        return reject(
          'delay/already-delayed',
          `${c.name} is taking a delayed turn now; it cannot be delayed again.`,
        );
      }
      return [
        { type: 'six-second/turn-delayed', combatant: id, turn: c.cs.turnNo },
        ...endTurn(ctx, { elapse: false }),
      ];
    }
    case 'take-turn': {
      const id = command.actor as string;
      const c = state.combatants[id];
      if (!c) return unknownCombatant(state, id);
      if (state.status !== 'running' || !state.now) {
        return notRunning(state) ?? notStarted();
      }
      if (!c.active)
        return reject(
          'combatant/defeated',
          `${c.name} is out of the fight; revive ${c.name} to bring them back into the order.`,
        );
      if (!c.cs.delaying) {
        return reject(
          'delay/not-delaying',
          `${c.name} has no delayed turn to take; a character delays on their own turn first.`,
        );
      }
      // 001: "he can take his turn — even if it is in the middle of someone else's turn (but not in the
      // middle of an action …). The other character begins his turn, the delayed character interrupts him,
      // and the other character finishes." Actions are taken whole, so between commands no action is open.
      // An action running on into its actor's next turn has taken every second left of this turn: the
      // moment after that last second is between two of its parts (as every other turn before the
      // actor's next one is), so the delayed turn may come there. It is the last such moment when the
      // actor is the last in the order, and the delayed turn must have one before its character's next turn.
      const entry: AgendaEntry = {
        id: ctx.newId('turn'),
        at: { round: state.round, at: [...state.now.at, 1, 0] },
        kind: 'turn',
        combatant: id,
        label: `${c.name}'s delayed turn`,
        ...(c.hidden ? { secret: true } : {}),
      };
      const events: EngineEvent[] = [];
      const current = state.current ? state.combatants[state.current] : undefined;
      if (current) {
        events.push({
          type: 'six-second/turn-interrupted',
          combatant: current.id,
          by: id,
          second: current.cs.secondsUsed,
          ...(current.cs.carry ? { runningOn: current.cs.carry.name } : {}),
        });
      }
      events.push(schedule(entry), ...reach(entry));
      return events;
    }
    case 'contest': {
      const ids = command.actors as string[];
      for (const id of ids) if (!state.combatants[id]) return unknownCombatant(state, id);
      const twice = ids.find((id, i) => ids.indexOf(id) !== i);
      if (twice) {
        return reject(
          'contest/duplicate',
          `${state.combatants[twice]!.name} is named twice; each contesting character makes one Reflex check.`,
        );
      }
      return contest(ctx, ids, typeof command.about === 'string' ? command.about : null);
    }
    default:
      return reject('command/unknown', `"${command.type}" is not a six-second command.`);
  }
}

function patchCs(
  state: State,
  id: string,
  f: (cs: SixSecondCombatant) => Partial<SixSecondCombatant>,
): State {
  const c = state.combatants[id];
  if (!c) return state;
  return { ...state, combatants: { ...state.combatants, [id]: { ...c, cs: { ...c.cs, ...f(c.cs) } } } };
}

const record = (cs: SixSecondCombatant, h: SpentSeconds): SpentSeconds[] => [...cs.history, h];

/** A late arrival took slot `from`: every instant at that slot or later moves down one place. */
function shiftSlots(state: State, from: number): State {
  const shift = (i: Instant): Instant => ({ round: i.round, at: shiftTuple(i.at, from) });
  const combatants = { ...state.combatants };
  for (const [id, c] of Object.entries(combatants)) {
    if (c.cs.base) combatants[id] = { ...c, cs: { ...c.cs, base: shiftTuple(c.cs.base, from) } };
  }
  return {
    ...state,
    combatants,
    now: state.now ? shift(state.now) : null,
    agenda: state.agenda.map((e) => ({ ...e, at: shift(e.at) })),
    effects: state.effects.map((e) =>
      e.expires.on === 'instant' ? { ...e, expires: { on: 'instant', at: shift(e.expires.at) } } : e,
    ),
  };
}

function evolve(state: State, event: EngineEvent): State | undefined {
  const id = event.combatant as string;
  const n = state.options.turnSeconds;
  switch (event.type) {
    case 'six-second/initiative':
      return patchCs(state, id, () => ({ initiative: event.total as number }));
    case 'six-second/roll-off': {
      const ids = event.combatants as string[];
      const totals = event.totals as number[];
      return ids.reduce(
        (s, x, i) => patchCs(s, x, (cs) => ({ rollOffs: [...cs.rollOffs, totals[i]!] })),
        state,
      );
    }
    case 'six-second/order': {
      const shifted = typeof event.shiftFrom === 'number' ? shiftSlots(state, event.shiftFrom) : state;
      return { ...shifted, rs: { ...shifted.rs, order: event.order as string[] } };
    }
    case 'six-second/turn-began':
      return patchCs(state, id, (cs) => ({
        turnNo: event.turn as number,
        base: event.base as number[],
        secondsUsed: 0,
        zeroUsed: event.delayed ? cs.zeroUsed : 0,
        delaying: false,
      }));
    case 'six-second/acted':
      return patchCs(state, id, (cs) => {
        const from = event.from as number;
        const to = event.to as number;
        const carry = event.carry as number;
        const seconds = event.seconds as number;
        const h: SpentSeconds = {
          round: event.round as number,
          turn: event.turn as number,
          from,
          to,
          kind: String(event.kind),
          label: String(event.name),
        };
        return {
          secondsUsed: to,
          zeroUsed: seconds === 0 ? cs.zeroUsed + 1 : cs.zeroUsed,
          history: record(cs, seconds === 0 ? { ...h, from: to + 1 } : h),
          carry:
            carry > 0
              ? {
                  action: String(event.action),
                  name: String(event.name),
                  kind: String(event.kind),
                  total: seconds,
                  secondsLeft: carry,
                  delay: (event.delay as number | null) ?? null,
                  effect: (event.effect as string | null) ?? null,
                }
              : cs.carry,
        };
      });
    case 'six-second/continued':
      return patchCs(state, id, (cs) => {
        const to = event.to as number;
        const carry = cs.carry;
        return {
          secondsUsed: to,
          carry: carry && !event.completes ? { ...carry, secondsLeft: carry.secondsLeft - to } : null,
          history: record(cs, {
            round: event.round as number,
            turn: event.turn as number,
            from: event.from as number,
            to,
            kind: 'carry',
            label: `${String(event.name)} (continued)`,
          }),
        };
      });
    case 'six-second/delay-started': {
      const p = event.effect as unknown as PendingEffect;
      return patchCs(state, id, (cs) => ({ pending: [...cs.pending, p] }));
    }
    case 'six-second/effect-occurred':
      return patchCs(state, id, (cs) => ({
        pending: cs.pending.filter((p) => p.id !== event.effect),
        history: record(cs, {
          round: event.round as number,
          turn: event.turn as number,
          from: event.second as number,
          to: event.second as number,
          kind: 'effect',
          label: `${String(event.name)} takes effect`,
        }),
      }));
    case 'six-second/effect-cancelled':
      return patchCs(state, id, (cs) => ({ pending: cs.pending.filter((p) => p.id !== event.effect) }));
    case 'six-second/turn-closed':
      return patchCs(state, id, () => ({ secondsUsed: n }));
    case 'six-second/turn-delayed':
      return patchCs(state, id, (cs) => ({
        delaying: true,
        base: null,
        history: record(cs, {
          round: state.round,
          turn: cs.turnNo,
          from: 1,
          to: n,
          kind: 'delay',
          label: 'delays',
        }),
      }));
    case 'six-second/delay-lapsed':
      return patchCs(state, id, () => ({ delaying: false }));
    case 'six-second/turn-interrupted':
      return { ...state, rs: { ...state.rs, interrupted: [...state.rs.interrupted, id] } };
    case 'six-second/turn-resumed': {
      const who = event.combatant;
      if (typeof who !== 'string') return { ...state, rs: { ...state.rs, interrupted: [] } };
      const at = state.rs.interrupted.lastIndexOf(who);
      return {
        ...state,
        current: who,
        rs: { ...state.rs, interrupted: state.rs.interrupted.slice(0, Math.max(0, at)) },
      };
    }
    case 'six-second/roll-off-abandoned':
    case 'six-second/joins-next-round':
    case 'six-second/contest-roll-off':
    case 'six-second/contest':
      return state;
    default:
      return undefined;
  }
}

/** What follows from an event while a command settles: turn bookkeeping, delays, late arrivals. */
function react(ctx: Ctx, event: EngineEvent): EngineEvent[] {
  const { state } = ctx;
  switch (event.type) {
    case 'turn/started': {
      const c = state.combatants[event.combatant as string];
      if (!c || !state.now) return [];
      const turn = c.cs.delaying ? c.cs.turnNo : c.cs.turnNo + 1;
      const n = state.options.turnSeconds;
      // What is pending as the turn opens, and how many of the character's own seconds away: the rest of
      // an action carried into this turn comes first, then its delay (001: "two seconds after casting").
      const pending: JsonObject[] = c.cs.pending.map((p) => ({
        name: p.name,
        seconds: Math.max(0, (p.due.turn - turn) * n + p.due.second),
      }));
      const carry = c.cs.carry;
      if (carry && !c.cs.delaying && carry.delay !== null) {
        pending.push({ name: carry.effect ?? carry.name, seconds: carry.secondsLeft + carry.delay });
      }
      return [
        {
          type: 'six-second/turn-began',
          combatant: c.id,
          turn,
          base: state.now.at.slice(0, -1),
          round: state.round,
          delayed: c.cs.delaying,
          pending,
        },
      ];
    }
    case 'six-second/turn-began': {
      const id = event.combatant as string;
      const c = state.combatants[id]!;
      const out = reproject(state, id);
      const carry = c.cs.carry;
      if (!carry || event.delayed) return out;
      // 001: "A character can … spend the last 3 seconds of one round casting a spell and finish it on the
      // first second of the next round": the rest of a long action takes the turn's first seconds.
      const n = state.options.turnSeconds;
      const to = Math.min(carry.secondsLeft, n);
      const completes = to === carry.secondsLeft;
      out.push({
        type: 'six-second/continued',
        combatant: id,
        action: carry.action,
        name: carry.name,
        from: 1,
        to,
        completes,
        round: state.round,
        turn: c.cs.turnNo,
      });
      out.push(...spendSeconds(state, id, 1, to));
      if (completes)
        out.push(...complete(ctx, id, carry.action, to, carry.delay, carry.effect ?? carry.name));
      return out;
    }
    case 'six-second/turn-delayed':
      return reproject(state, event.combatant as string);
    case 'clock/advanced':
      return dueEffects(state);
    case 'combatant/added':
    case 'combatant/revived': {
      if (state.status !== 'running' || !state.now) return [];
      const id =
        event.type === 'combatant/added'
          ? (event.combatant as { id: string }).id
          : (event.combatant as string);
      if (event.type === 'combatant/revived' && state.rs.order.includes(id)) return [];
      const { events, index } = insertLateArrival(ctx, id);
      const slot = index + 1;
      // A place after the turn running now is still ahead this round; at or before it, it has passed.
      if (slot > (state.now.at[0] ?? 0)) {
        events.push(schedule(turnEntry(ctx, id, state.round, slot)));
      } else {
        events.push({ type: 'six-second/joins-next-round', combatant: id });
      }
      return events;
    }
    case 'combatant/defeated': {
      const id = event.combatant as string;
      const c = state.combatants[id];
      const out: EngineEvent[] = state.agenda
        .filter((e) => e.combatant === id && e.kind === 'turn')
        .map((e) => unschedule(e.id, 'defeated'));
      // Decision: a delay counts down the caster's own turns; with no more turns it never ends (docs).
      for (const p of c?.cs.pending ?? []) {
        out.push(unschedule(p.id, 'defeated'), {
          type: 'six-second/effect-cancelled',
          combatant: id,
          effect: p.id,
          name: p.name,
        });
      }
      return out;
    }
    default:
      return [];
  }
}

/** The order and the interruption stack name every combatant; a hidden one must not show through them. */
function redact(state: State, _viewer: Viewer): State {
  const seen = (id: string) => Object.hasOwn(state.combatants, id);
  return {
    ...state,
    rs: { order: state.rs.order.filter(seen), interrupted: state.rs.interrupted.filter(seen) },
  };
}

function redactEvent(
  event: EngineEvent,
  _viewer: Viewer,
  _state: State,
  hidden: ReadonlySet<string>,
): EngineEvent | null {
  if (hidden.size === 0) return event;
  switch (event.type) {
    case 'six-second/order':
      return { type: event.type, order: (event.order as string[]).filter((id) => !hidden.has(id)) };
    case 'six-second/roll-off':
    case 'six-second/roll-off-abandoned':
    case 'six-second/contest-roll-off':
      return (event.combatants as string[]).some((id) => hidden.has(id)) ? null : event;
    case 'six-second/contest': {
      const order = event.order as string[];
      const totals = event.totals as number[];
      const seen = order.map((id, i) => [id, totals[i]!] as const).filter(([id]) => !hidden.has(id));
      return { ...event, order: seen.map(([id]) => id), totals: seen.map(([, t]) => t) };
    }
    case 'six-second/turn-interrupted':
      return hidden.has(event.by as string) ? null : event;
    default:
      return event;
  }
}

export const sixSecond: Ruleset<SixSecondTypes> = {
  id: 'six-second',
  version: 1,
  name: 'Six-Second Turns',
  summary:
    'Initiative = Reflex check + Dexterity; each turn has 6 seconds to spend on actions of whole seconds.',
  optionsSchema: sixSecondOptions,
  statsSchema: sixSecondStats as unknown as Ruleset<SixSecondTypes>['statsSchema'],
  commands,
  events: sixSecondEvents,
  clock: {
    unit: 'second',
    describe: describeInstant,
  },
  init: () => ({ order: [], interrupted: [] }),
  initCombatant: () => ({
    initiative: null,
    rollOffs: [],
    turnNo: 0,
    base: null,
    secondsUsed: 0,
    zeroUsed: 0,
    delaying: false,
    carry: null,
    pending: [],
    history: [],
  }),
  catalog: builtInCatalog,
  decide,
  evolve,
  react,
  legalActions,
  timeline,
  redact,
  redactEvent,
  describeEvent,
  validateCustomAction,
  canSetOptions(state, next) {
    if (state.status !== 'setup' && next.turnSeconds !== state.options.turnSeconds) {
      return reject(
        'options/turn-length-locked',
        `Turns are ${state.options.turnSeconds} s long in this fight; the turn length can change only before the fight starts.`,
      );
    }
    return undefined;
  },
  present: sixSecondPresent,
};
