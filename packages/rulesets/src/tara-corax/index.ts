import {
  actorField,
  type Command,
  cannotStart,
  combatantField,
  combatantOf,
  compareInstants,
  type DecideContext,
  type Decision,
  type EngineEvent,
  humanize,
  type Instant,
  isRejection,
  type LegalAction,
  notRunning,
  type Rejection,
  type Ruleset,
  reject,
  schedule,
  unknownCombatant,
  unschedule,
  type Viewer,
} from '@roundkeeper/engine';
import { z } from 'zod';
import {
  type ActParams,
  actsSimultaneouslyNow,
  check,
  currentMark,
  perform,
  taraCatalog,
} from './actions.js';
import { taraAnalysis } from './analysis.js';
import { TARA_CATALOG, validateCustomAction } from './catalog.js';
import { describeTaraEvent } from './describe.js';
import { taraEvents } from './events.js';
import { evolveTara } from './evolve.js';
import { type RollRequest, reachEntry, rollInitiative, startRound, turnEntry } from './initiative.js';
import { instantAt, markOf } from './marks.js';
import { taraPresent } from './present.js';
import { taraTimeline } from './timeline.js';
import {
  type TaraCombatant,
  type TaraOptions,
  type TaraRound,
  type TaraState,
  type TaraTypes,
  taraOptions,
  taraStats,
} from './types.js';

export type { TaraCombatant, TaraRound, TaraTypes } from './types.js';

type Ctx = DecideContext<TaraTypes>;

const actor = actorField();
const rollRequest = {
  delay: z
    .record(
      actorField(),
      z.enum(['up', 'down']).meta({
        label: 'Half the roll rounded',
        choices: { up: 'Up', down: 'Down' },
      }),
    )
    .optional()
    .meta({
      label: 'Delaying this Round',
      description: 'Announced with the roll; half the roll, rounded up or down.',
    }),
  rolls: z
    .record(actorField(), z.number().int().min(1).max(100).meta({ label: 'Rolled' }))
    .optional()
    .meta({
      label: 'Initiative rolled at the table',
      description: 'The d10 plus any extra d10s; the others are rolled.',
    }),
};

const commands = {
  start: z
    .object(rollRequest)
    .meta({ label: 'Start the fight', description: 'Roll Initiative and begin round 1.', gm: true }),
  next: z.object(rollRequest).meta({
    label: 'Next',
    description: 'Go to the next Mark; at the end of the Round, roll Initiative for the next one.',
  }),
  act: z
    .object({
      actor,
      action: z.string().min(1).max(64).meta({ label: 'Action', hidden: true }),
      units: z.number().int().min(0).max(100).optional().meta({ label: 'Units to move' }),
      castingTime: z.number().int().min(1).optional().meta({
        label: 'Casting Time (Marks)',
        description: 'Longer than the Marks left, the spell carries over into as many Rounds as it takes.',
      }),
      spell: z.string().min(1).max(80).optional().meta({ label: 'Spell' }),
      target: combatantField('Target').optional(),
      throwing: z
        .boolean()
        .optional()
        .meta({ label: 'Throwing weapon', description: 'No Set needed to attack at range.' }),
      defending: z.boolean().optional().meta({
        label: 'Defending',
        description:
          'Someone moved into melee with this character: no Set is needed and the full set of melee attacks applies.',
      }),
      combatCasting: z.boolean().optional().meta({
        label: 'With Combat Casting',
        description: 'Cast using the Combat Casting Skill (needs a Set first).',
      }),
      check: z
        .number()
        .int()
        .min(0)
        .max(100)
        .optional()
        .meta({ label: 'Combat Casting Check', description: 'The Skill Check total: 1 Unit per 3 over 2.' }),
      faces: z
        .array(z.number().int().min(1).max(100))
        .max(10)
        .optional()
        .meta({ label: 'Attack dice', description: 'Rolled at the table; left empty, they are rolled.' }),
    })
    .meta({ label: 'Take an action', description: "One of the catalog's actions, at the current Mark." }),
  fizzle: z
    .object({ actor: actorField('Combatant') })
    .meta({ label: 'Fizzle the spell', description: 'The spell being cast does not go off.', gm: true }),
};

function checkRequest(state: TaraState, req: RollRequest): Rejection | undefined {
  for (const id of [...Object.keys(req.delay ?? {}), ...Object.keys(req.rolls ?? {})]) {
    if (!combatantOf(state, id)) return unknownCombatant(state, id);
  }
  return undefined;
}

/** 000 Very Simply: "choose to forego any Initiative Roll": table dice would be silently ignored. */
function noRollToGive(state: TaraState, req: RollRequest, round: number): Rejection | undefined {
  if (state.options.roundMode !== 'very-simply' || Object.keys(req.rolls ?? {}).length === 0)
    return undefined;
  return reject(
    'initiative/no-roll',
    `Round ${round} is played Very Simply: nobody rolls Initiative, the score is the Initiative characteristic (rounded up) plus modifiers. Leave the rolls empty, or change the Round mode option to Full or Simple first.`,
  );
}

/** `next`: the clock moves to the next thing on the agenda; when the Round has nothing left, it ends. */
function next(ctx: Ctx, req: RollRequest): Decision {
  const { state } = ctx;
  const stopped = notRunning(state);
  if (stopped) return stopped;
  const bad = checkRequest(state, req);
  if (bad) return bad;
  if (state.rs.phase === 'between')
    return noRollToGive(state, req, state.round + 1) ?? startRound(ctx, state.round + 1, req);
  // 000 Delaying: "Your character may always delay their actions once per Round".
  const delayedAgain = Object.keys(req.delay ?? {}).find((id) => state.combatants[id]?.cs.delaying);
  if (delayedAgain) {
    const c = state.combatants[delayedAgain]!;
    return reject(
      'delay/not-now',
      `${c.name} already delayed this Round (announced with the roll, half rounded ${c.cs.delaying}: Mark ${c.cs.initiativeScore ?? 0}); a character delays at most once per Round. Announce the next delay with the next Round's roll.`,
    );
  }
  if (req.delay || req.rolls) {
    return reject(
      'delay/not-now',
      `Delays and table rolls are given with the Initiative Roll; round ${state.round} is still running (press Next until it ends, then give them with the roll).`,
    );
  }
  const events: EngineEvent[] = [];
  if (state.current) events.push({ type: 'turn/ended', combatant: state.current });
  const entry = state.agenda.find((e) => e.at.round === state.round);
  if (entry) return [...events, ...reachEntry(state, entry)];
  // 000 Carry Over: "This IS NOT the case with attacks and movement. If you run out of Initiative, you can't finish".
  // A character still Channeling has used ALL of the Round's Initiative on it: nothing is forfeited.
  for (const id of state.roster) {
    const c = state.combatants[id]!;
    if (c.active && c.cs.marksLeft > 0 && c.cs.channeling !== 'channeling')
      events.push({ type: 'tara/forfeited', combatant: id, marks: c.cs.marksLeft });
  }
  events.push({ type: 'round/ended', round: state.round }, { type: 'tara/round-over', round: state.round });
  return events;
}

function decide(ctx: Ctx, command: Command): Decision {
  const { state } = ctx;
  switch (command.type) {
    case 'start': {
      const refused = cannotStart(state);
      if (refused) return refused;
      const req = command as RollRequest;
      const bad = checkRequest(state, req) ?? noRollToGive(state, req, 1);
      if (bad) return bad;
      return [{ type: 'encounter/started' }, ...startRound(ctx, 1, req)];
    }
    case 'next':
      return next(ctx, command as RollRequest);
    case 'act': {
      const id = command.actor as string;
      if (!combatantOf(state, id)) return unknownCombatant(state, id);
      const catalog = taraCatalog(state);
      const action = catalog.find((a) => a.id === command.action);
      if (!action) {
        return reject(
          'action/unknown',
          `There is no action "${String(command.action)}" here; pick one of ${catalog.map((a) => a.name).join(', ')}.`,
        );
      }
      const params = command as unknown as ActParams;
      if (params.target !== undefined && !combatantOf(state, params.target))
        return unknownCombatant(state, params.target);
      const plan = check(state, id, action, params);
      if (isRejection(plan)) return { ...plan, details: { actor: id, action: action.id } };
      return perform(ctx, plan, params);
    }
    case 'fizzle': {
      const id = command.actor as string;
      const c = combatantOf(state, id);
      if (!c) return unknownCombatant(state, id);
      if (!c.cs.casting)
        return reject('cast/not-casting', `${c.name} is not casting a spell that could fizzle.`);
      const entry = state.agenda.find((e) => e.id === c.cs.casting!.entry);
      return [
        ...(entry ? [unschedule(entry.id, 'fizzled')] : []),
        { type: 'tara/spell-fizzled', combatant: id, spell: c.cs.casting.spell },
      ];
    }
    default:
      return reject('command/unknown', `"${command.type}" is not a Tara-Corax command.`);
  }
}

/** What follows from core events: a defeated caster's spell fizzles; a late arrival rolls Initiative. */
function react(ctx: Ctx, event: EngineEvent): EngineEvent[] {
  const { state } = ctx;
  if (event.type === 'combatant/defeated') {
    const c = state.combatants[event.combatant as string];
    if (!c) return [];
    // A turn at the instant of a simultaneous action stays: the defeated character still takes it.
    const simultaneousTurn = (e: { kind: string; at: Instant }) =>
      e.kind === 'turn' &&
      actsSimultaneouslyNow(state, c.id) &&
      !!state.now &&
      compareInstants(e.at, state.now) === 0;
    const out: EngineEvent[] = state.agenda
      .filter((e) => e.combatant === c.id && !simultaneousTurn(e))
      .map((e) => unschedule(e.id, 'defeated'));
    if (c.cs.casting) out.push({ type: 'tara/spell-fizzled', combatant: c.id, spell: c.cs.casting.spell });
    if (c.cs.carrying)
      out.push({
        type: 'tara/carry-dropped',
        combatant: c.id,
        action: c.cs.carrying.action,
        name: c.cs.carrying.name,
      });
    return out;
  }
  if (event.type === 'combatant/added' && state.status === 'running' && state.rs.phase === 'round') {
    const id = (event.combatant as { id: string }).id;
    const rolled = rollInitiative(ctx, id, state.round, state.rs.roundMode, {});
    const score = rolled.find((e) => e.type === 'tara/initiative')!.score as number;
    const entry = turnEntry(
      ctx,
      id,
      state.round,
      score,
      `${state.combatants[id]!.name} acts (Mark ${score})`,
    );
    const ahead = score >= 1 && (!state.now || compareInstants(entry.at, state.now) > 0);
    return [...rolled, ahead ? schedule(entry) : { type: 'tara/joins-next-round', combatant: id }];
  }
  return [];
}

function legalActions(state: TaraState, id: string): LegalAction[] {
  return taraCatalog(state).map((action) => {
    const params: ActParams = action.data?.rule === 'cast' ? { castingTime: 15 } : {};
    const plan = check(state, id, action, params);
    if (isRejection(plan))
      return { action, enabled: false, reason: plan.message, code: plan.code, cost: action.cost };
    const cost = { marks: plan.exception ? (state.combatants[id]?.cs.marksLeft ?? 0) : plan.marks };
    const out: LegalAction = { action, enabled: true, cost };
    if (state.now && plan.marks > 0) {
      const full = state.rs.roundMode === 'full';
      const to = full ? plan.mark - plan.marks : plan.mark;
      out.preview = {
        from: state.now,
        to: instantAt(state.round, Math.max(to, 1), [], 'turn'),
        label: full ? `Mark ${plan.mark} → Mark ${Math.max(to, 0)}` : `at Mark ${plan.mark}`,
      };
    }
    return out;
  });
}

function redact(state: TaraState, _viewer: Viewer): TaraState {
  const seen = (id: string) => Object.hasOwn(state.combatants, id);
  const h = state.rs.history;
  return {
    ...state,
    rs: {
      ...state.rs,
      order: state.rs.order.map((g) => g.filter(seen)).filter((g) => g.length > 0),
      together: state.rs.together ? { ...state.rs.together, ids: state.rs.together.ids.filter(seen) } : null,
      history: {
        spans: h.spans.filter((s) => seen(s.combatant)),
        markers: h.markers.filter((m) => seen(m.combatant)),
      },
    } as TaraState['rs'],
  };
}

function redactEvent(
  event: EngineEvent,
  _viewer: Viewer,
  state: TaraState,
  hidden: ReadonlySet<string>,
): EngineEvent | null {
  const seen = (id: string) => Object.hasOwn(state.combatants, id) && !hidden.has(id);
  if (event.type === 'tara/simultaneous') {
    const partners = (event.with as string[]).filter(seen);
    return partners.length ? { ...event, with: partners } : null;
  }
  if (event.type === 'tara/round-order') {
    const order = (event.order as string[][]).map((g) => g.filter(seen)).filter((g) => g.length > 0);
    return { ...event, order };
  }
  return event;
}

const initRound = (options: TaraOptions): TaraRound => ({
  phase: 'setup',
  roundMode: options.roundMode,
  order: [],
  together: null,
  history: { spans: [], markers: [] },
});

const initCombatant = (): TaraCombatant => ({
  initiativeRoll: null,
  initiativeScore: null,
  marksLeft: 0,
  carryOver: 0,
  delaying: null,
  acted: false,
  fullActionException: false,
  landSpeedUsed: 0,
  movedThisRound: false,
  meleeSet: false,
  rangedSet: true,
  rangedUnsetBy: null,
  castingSet: false,
  actedAt: null,
  casting: null,
  carrying: null,
  channeling: 'no',
  unitsMoved: 0,
  attacksMade: 0,
});

/**
 * `tara-corax`: a Round of 30 Marks counted down. The Initiative Score is when a character first acts
 * and the budget every action spends (Free 0, Quarter 5, Half 10, Full 15, 1 Mark per Unit moved).
 * Full, Simple and Very Simply rounds; attacks spread over 15 Marks; spells that carry over.
 */
export const taraCorax: Ruleset<TaraTypes> = {
  id: 'tara-corax',
  version: 1,
  name: 'Tara-Corax',
  summary: 'A 30-Mark countdown Round: the Initiative Score is both when you act and the Marks you spend.',
  optionsSchema: taraOptions,
  statsSchema: taraStats,
  commands,
  events: taraEvents,
  clock: {
    unit: 'Mark',
    describe: (_state, at: Instant) => `Round ${at.round} · Mark ${markOf(at)}`,
    after: (_state, from: Instant, amount: number) => {
      const at = instantAt(from.round, markOf(from) - amount, [], 'resolve');
      return { round: at.round, at: [at.at[0]!] };
    },
  },
  init: (options) => initRound(options) as TaraState['rs'],
  initCombatant: () => initCombatant() as TaraState['combatants'][string]['cs'],
  catalog: () => TARA_CATALOG,
  decide,
  evolve: evolveTara,
  react,
  legalActions,
  timeline: taraTimeline,
  redact,
  redactEvent,
  describeEvent: describeTaraEvent,
  validateCustomAction,
  canSetOptions(state: TaraState, nextOptions: TaraOptions): Rejection | undefined {
    if (state.status !== 'running' || state.rs.phase !== 'round') return undefined;
    const changed = (Object.keys(nextOptions) as Array<keyof TaraOptions>).filter(
      (k) => nextOptions[k] !== state.options[k],
    );
    if (changed.length === 0) return undefined;
    return reject(
      'options/mid-round',
      `Options change between Rounds: round ${state.round} is under way. Press Next until it ends, then change ${changed.map((k) => humanize(k).toLowerCase()).join(', ')}.`,
    );
  },
  present: taraPresent,
  analysis: taraAnalysis,
};

export { currentMark };
