import { compareInstants } from './clock.js';
import {
  type CoreCommand,
  checkCommand,
  checkedFrozen,
  checkFrozenCommand,
  coreCommandSchemas,
  explainZodError,
  isCoreCommand,
  unknownOptions,
} from './commands.js';
import { decideCore, resolveExpiry } from './core-decide.js';
import {
  type DiceExpr,
  DiceLimitError,
  DiceRefError,
  type DiceRoll,
  DiceSyntaxError,
  parseDice,
  type RollOptions,
  rollDice,
} from './dice/index.js';
import { DiceScriptError, type DiceState, StateRng } from './dice/rng.js';
import { type Draft, enterDraft, leaveDraft } from './draft.js';
import type { CoreEvent } from './events.js';
import { evolve, isCore } from './evolve.js';
import { explainCommandError } from './params.js';
import { notRunning } from './refusals.js';
import type { AnyRuleset, DecideContext, RulesetRegistry } from './ruleset.js';
import { timedDue } from './timed.js';
import {
  type Combatant,
  type Command,
  type Duration,
  type EffectExpiry,
  type EncounterState,
  type EngineEvent,
  isRejection,
  type Rejection,
  reject,
  STATE_SCHEMA,
  type Viewer,
} from './types.js';
import { viewRejection } from './view.js';

/** How many events one command may cause, cascades included, before it is refused as a runaway. */
export const MAX_EVENTS_PER_COMMAND = 5000;

export interface DecideOptions {
  by?: Viewer;
  /**
   * The caller holds `state` and every state earlier decisions under this draft returned, and keeps none
   * but the latest: the events are folded in place into what those decisions made (see `Draft`). A
   * refusal or error once folding has begun marks the draft spoiled. Never for a state anyone else reads
   * (a server's encounter, a log's checkpoints).
   */
  draft?: Draft;
}

export function rulesetFor(state: EncounterState, registry: RulesetRegistry): AnyRuleset | Rejection {
  const r = Object.hasOwn(registry, state.ruleset) ? registry[state.ruleset] : undefined;
  if (!r) {
    return reject(
      'ruleset/unknown',
      `This encounter uses the ruleset "${state.ruleset}", which is not installed. Installed: ${Object.keys(registry).join(', ')}.`,
    );
  }
  return r;
}

class Context implements DecideContext {
  /** Made when the decision first rolls: most commands roll nothing. */
  private cursor: StateRng | undefined = undefined;
  private ids = 0;
  constructor(
    public state: EncounterState,
    readonly command: Command,
    readonly by: Viewer,
    private readonly dice: DiceState,
    private readonly baseSeq: number,
    private readonly ruleset: AnyRuleset,
  ) {}
  get rng(): StateRng {
    this.cursor ??= new StateRng(this.dice);
    return this.cursor;
  }
  /** How many faces this decision rolled. */
  get rolled(): number {
    return this.cursor?.count ?? 0;
  }
  expiry(duration: Duration): EffectExpiry | Rejection {
    return resolveExpiry(this.state, this.ruleset, duration);
  }
  roll(expression: string, refs?: Record<string, number>, options?: RollOptions): DiceRoll {
    return rollDice(parsed(expression), this.rng, refs, options);
  }
  newId(prefix: string): string {
    this.ids++;
    return `${prefix}${this.baseSeq + 1}.${this.ids}`;
  }
}

/** Notation already read, by its text: a ruleset rolls the same few expressions over and over. */
const PARSED = new Map<string, DiceExpr>();
const PARSED_MAX = 1000;

/** `parseDice`, remembered (a syntax tree is only read, never changed); notation that fails is not kept. */
function parsed(expression: string): DiceExpr {
  let tree = PARSED.get(expression);
  if (tree === undefined) {
    tree = parseDice(expression);
    if (PARSED.size >= PARSED_MAX) PARSED.clear();
    PARSED.set(expression, tree);
  }
  return tree;
}

/** Effects whose anchor this event reaches: the engine's own cascade. */
function expiries(state: EncounterState, event: EngineEvent): EngineEvent[] {
  const out: EngineEvent[] = [];
  for (const e of state.effects) {
    const x = e.expires;
    let due = false;
    switch (x.on) {
      case 'turn-start':
        due =
          event.type === 'turn/started' &&
          event.combatant === x.combatant &&
          (state.combatants[x.combatant]?.turnsStarted ?? 0) >= x.turnsStarted;
        break;
      case 'turn-end':
        due =
          event.type === 'turn/ended' &&
          event.combatant === x.combatant &&
          (state.combatants[x.combatant]?.turnsStarted ?? 0) >= x.turnsStarted;
        break;
      case 'round-end':
        due = isCore(event) && event.type === 'round/ended' && event.round >= x.round;
        break;
      case 'instant':
        due = event.type === 'clock/advanced' && state.now !== null && compareInstants(x.at, state.now) <= 0;
        break;
      case 'never':
        break;
    }
    if (due) out.push({ type: 'effect/expired', effect: e.id, name: e.name, target: e.target });
  }
  return out;
}

/** A decision with the state it settled to: the events and their fold, so nobody folds them again. */
export interface Settled {
  events: EngineEvent[];
  /** The state after every event (history and seq are the log's to update). */
  state: EncounterState;
}

/**
 * Whether `decideSettled` decided (rather than refused): `isRejection` for this one pair of shapes, which
 * a hot loop (a simulator's) asks without the general check's cost.
 */
export function isSettled(x: Settled | Rejection): x is Settled {
  return (x as Partial<Settled>).events !== undefined;
}

/**
 * Decides a command against the current state: the events it causes (cascades included, in order,
 * each consequence right after its cause) or a rejection. Never throws on malformed input.
 */
export function decide(
  state: EncounterState,
  command: unknown,
  registry: RulesetRegistry,
  options: DecideOptions = {},
): EngineEvent[] | Rejection {
  const settled = decideSettled(state, command, registry, options);
  return isSettled(settled) ? settled.events : settled;
}

/** `decide`, with the state the events settled to (the log appends both instead of folding twice). */
export function decideSettled(
  state: EncounterState,
  command: unknown,
  registry: RulesetRegistry,
  options: DecideOptions = {},
): Settled | Rejection {
  try {
    const decided = decideUnsafe(state, command, registry, options);
    // A refusal sent to a player or the table never names what their view hides.
    if (!isSettled(decided) && options.by && options.by.role !== 'gm') {
      return viewRejection(decided, options.by, state);
    }
    return decided;
  } catch (error) {
    if (
      error instanceof DiceScriptError ||
      error instanceof DiceSyntaxError ||
      error instanceof DiceRefError ||
      error instanceof DiceLimitError
    ) {
      return reject(error.code, error.message);
    }
    const message = error instanceof Error ? error.message : String(error);
    return reject(
      'engine/internal',
      `The command could not be decided because of an internal error: ${message}`,
    );
  }
}

function decideUnsafe(
  state: EncounterState,
  raw: unknown,
  registry: RulesetRegistry,
  options: DecideOptions,
): Settled | Rejection {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return reject('command/invalid', 'A command must be an object with a "type", like {"type": "next"}.');
  }
  const command = raw as Command;
  if (typeof command.type !== 'string' || command.type.length === 0) {
    return reject('command/invalid', 'A command needs a "type" naming what to do, like "next" or "act".');
  }
  const ruleset = Object.hasOwn(registry, state.ruleset) ? registry[state.ruleset] : undefined;
  if (!ruleset) return rulesetFor(state, registry) as Rejection;
  if (state.status === 'ended' && !['undo', 'redo', 'note'].includes(command.type)) {
    return notRunning(state, 'encounter')!;
  }

  const by = options.by ?? GM;
  // A frozen command (a simulator's, sent again and again) is checked once, remembered by identity; once
  // checked against a record that can no longer change, the record it was checked in says whose command
  // it is (the engine's own types are fixed), with nothing looked up by its type.
  const known = Object.isFrozen(command) ? checkedFrozen(command) : undefined;
  let core: boolean;
  let valid: Command;
  if (known !== undefined && known.fixedIn === ruleset.commands) {
    core = false;
    valid = known.command as Command;
  } else if (known !== undefined && known.fixedIn === coreCommandSchemas) {
    core = true;
    valid = known.command as Command;
  } else {
    const checked = checkedCommand(command, ruleset);
    if (!('command' in checked)) return checked;
    core = checked.core;
    valid = checked.command;
  }
  const unknownTarget = core ? undefined : checkTarget(state, valid, by);
  if (unknownTarget) return unknownTarget;
  const ctx = new Context(state, valid, by, state.dice, state.seq, ruleset);
  const decided = core ? decideCore(ctx, valid as CoreCommand, ruleset) : ruleset.decide(ctx, valid);
  // A decision is its events (an array) or a refusal.
  if (!Array.isArray(decided)) {
    if (isRejection(decided)) return decided;
    throw new Error('a decision must be a list of events or a refusal');
  }
  return settle(ctx, ruleset, decided, options.draft);
}

/** A command's type looked up (the engine's own, else the ruleset's) and its fields checked by its schema. */
function checkedCommand(
  command: Command,
  ruleset: AnyRuleset,
): { command: Command; core: boolean } | Rejection {
  const type = command.type;
  const core = isCoreCommand(type);
  if (!core && !Object.hasOwn(ruleset.commands, type)) {
    const known = [...Object.keys(ruleset.commands), ...Object.keys(coreCommandSchemas)].join(', ');
    return reject('command/unknown', `"${type}" is not a command here. Known commands: ${known}.`, { type });
  }
  const checked = Object.isFrozen(command)
    ? core
      ? checkFrozenCommand(coreCommandSchemas, command as Command & { type: typeof type })
      : checkFrozenCommand(ruleset.commands, command)
    : core
      ? checkCommand(coreCommandSchemas, type, withoutType(command))
      : checkCommand(ruleset.commands, type, withoutType(command));
  if ('error' in checked) {
    return reject('command/invalid', explainCommandError(checked.error, type, checked.schema), { type });
  }
  return { command: checked.command, core };
}

/** A command's payload: its fields without `type`. */
function withoutType(command: Command): Record<string, unknown> {
  const { type: _, ...payload } = command;
  return payload;
}

/** The viewer a command is decided for when none is named. */
const GM: Viewer = Object.freeze({ role: 'gm' });

/**
 * A ruleset command's `target` names a combatant of this encounter: a typo or a combatant removed by an
 * undo is refused here, once for every ruleset. To a viewer who may not see a hidden combatant, the hidden
 * one reads exactly like an unknown one (the refusal must not confirm it exists).
 */
function checkTarget(state: EncounterState, command: Command, by: Viewer): Rejection | undefined {
  const target = command.target;
  if (typeof target !== 'string' || target.length === 0) return undefined;
  const c = Object.hasOwn(state.combatants, target) ? state.combatants[target] : undefined;
  // The common case first, with nothing made for it: a GM's command, a visible target.
  if (c && (by.role === 'gm' || !c.hidden)) return undefined;
  const visible = (x: Combatant) =>
    by.role === 'gm' || !x.hidden || (by.role === 'player' && by.combatants.includes(x.id));
  if (c && visible(c)) return undefined;
  const names = state.roster
    .flatMap((id) => state.combatants[id] ?? [])
    .filter(visible)
    .map((x) => `${x.id} (${x.name})`);
  return reject(
    'target/unknown',
    `There is no combatant "${target}" to target. Target one of: ${names.join(', ') || 'nobody yet'}.`,
    { target },
  );
}

const NONE: readonly EngineEvent[] = [];

/** Applies events one by one on a draft, queueing what each one causes; then records the dice state. */
function settle(
  ctx: Context,
  ruleset: AnyRuleset,
  decided: EngineEvent[],
  draft: Draft | undefined,
): Settled | Rejection {
  // The intermediate states are this fold's own (a ruleset's `react` reads only the latest): one copy of
  // the combatants record per command, not one per event.
  const outer = enterDraft(draft);
  try {
    const settled = settleDrafted(ctx, ruleset, decided);
    // Under a caller's draft, only the settling writes in place (a ruleset's `decide` never does): what
    // stops it part-way leaves the caller's latest state half-changed, which the draft then says.
    if (draft && !isSettled(settled)) draft.spoiled = true;
    return settled;
  } catch (error) {
    if (draft) draft.spoiled = true;
    throw error;
  } finally {
    leaveDraft(outer);
  }
}

function settleDrafted(ctx: Context, ruleset: AnyRuleset, decided: EngineEvent[]): Settled | Rejection {
  // The events in the order applied. While nothing cascades they are the decided events themselves, in
  // order, so no list is made for them: `out` is made when the first consequence comes (or the dice
  // state is recorded), with the decided events applied so far.
  let out: EngineEvent[] | undefined;
  let applied = 0;
  // Consequences still to apply, the next one last: what an event causes is pushed on top in reverse, so
  // it is applied right after its cause and before anything that was waiting (depth first, in order);
  // the decided events come next, in order, once nothing is pending (made only when something cascades).
  let pending: EngineEvent[] | undefined;
  let next = 0;
  let draft = ctx.state;
  for (let event = decided[next++]; event; event = pending?.length ? pending.pop() : decided[next++]) {
    if (out) out.push(event);
    if (++applied > MAX_EVENTS_PER_COMMAND) {
      return reject(
        'engine/runaway',
        `This command caused more than ${MAX_EVENTS_PER_COMMAND} events; a rule is probably looping. Nothing was changed.`,
      );
    }
    draft = evolve(draft, event, ruleset);
    ctx.state = draft;
    // Asked in this order (a reaction may roll): the effects the event ends, timed events it reaches, the
    // ruleset's reactions; applied in the same order.
    const expired = draft.effects.length ? expiries(draft, event) : NONE;
    const timed = draft.timed?.length ? timedDue(draft, event) : NONE;
    const reactions = ruleset.react?.(ctx, event) ?? NONE;
    if (reactions.length + timed.length + expired.length === 0) continue;
    // Every event so far was a decided one, in order (the first consequence is the first out of order).
    out ??= decided.slice(0, next);
    pending ??= [];
    for (let i = reactions.length - 1; i >= 0; i--) pending.push(reactions[i]!);
    for (let i = timed.length - 1; i >= 0; i--) pending.push(timed[i]!);
    for (let i = expired.length - 1; i >= 0; i--) pending.push(expired[i]!);
  }
  if (ctx.rolled > 0) {
    const dice: CoreEvent = { type: 'dice/state', dice: ctx.rng.snapshot() };
    out ??= decided.slice(0, next - 1);
    out.push(dice);
    draft = evolve(draft, dice, ruleset);
  }
  // Nothing cascaded and nothing rolled: the events are the decided ones (a list nobody writes to), all
  // of them unless a hole in the list stopped the loop.
  return {
    events: out ?? (next - 1 === decided.length ? decided : decided.slice(0, next - 1)),
    state: draft,
  };
}

export interface NewEncounter {
  id: string;
  name: string;
  ruleset: string;
  options?: unknown;
  dice: DiceState;
}

/** The first event of every log: the encounter as created, options validated and defaulted. */
export function createEncounter(input: NewEncounter, registry: RulesetRegistry): EngineEvent | Rejection {
  const ruleset = Object.hasOwn(registry, input.ruleset) ? registry[input.ruleset] : undefined;
  if (!ruleset) {
    return reject(
      'ruleset/unknown',
      `There is no ruleset "${input.ruleset}". Choose one of: ${Object.keys(registry).join(', ')}.`,
    );
  }
  const unknown = unknownOptions(ruleset.optionsSchema, input.options, ruleset.name);
  if (unknown) return reject('options/unknown', unknown);
  const parsed = ruleset.optionsSchema.safeParse(input.options ?? {});
  if (!parsed.success) {
    return reject(
      'options/invalid',
      explainZodError(parsed.error, `options for ${ruleset.name}`, ruleset.optionsSchema),
    );
  }
  const state: EncounterState = {
    schema: STATE_SCHEMA,
    id: input.id,
    name: input.name,
    ruleset: ruleset.id,
    rulesetVersion: ruleset.version,
    options: parsed.data,
    status: 'setup',
    round: 0,
    now: null,
    current: null,
    combatants: {},
    roster: [],
    agenda: [],
    effects: [],
    customActions: [],
    dice: input.dice,
    gmNotes: [],
    history: { undoable: [], redoable: [], lastGroup: 0 },
    seq: 0,
    rs: ruleset.init(parsed.data),
  };
  return { type: 'encounter/created', state };
}
