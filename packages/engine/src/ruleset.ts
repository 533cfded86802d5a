import type { z } from 'zod';
import type { Instant } from './clock.js';
import type { CoreCommand } from './commands.js';
import type { DiceRoll, RollOptions } from './dice/index.js';
import type { Rng } from './dice/rng.js';
import type { CoreEvent } from './events.js';
import type { Presentation } from './present.js';
import type { Analysis } from './simulation.js';
import type { Timeline } from './timeline.js';
import type {
  ActionDef,
  Combatant,
  Command,
  Duration,
  EffectExpiry,
  EncounterState,
  EngineEvent,
  LegalAction,
  Rejection,
  RulesetCommand,
  RulesetEvent,
  RulesetTypes,
  Viewer,
} from './types.js';

/**
 * What a ruleset receives when it decides. One shape for every ruleset, fixed before there were six:
 * the state (read-only), the command, who sent it, dice, and deterministic ids.
 */
export interface DecideContext<T extends RulesetTypes = RulesetTypes> {
  readonly state: EncounterState<T>;
  /** The command being decided (while it settles, `react` sees it too: an engine command or the ruleset's). */
  readonly command: CoreCommand | RulesetCommand<T> | Command;
  readonly by: Viewer;
  /** Rolls a dice expression from the encounter's dice state; the result carries every face. */
  roll(expression: string, refs?: Record<string, number>, options?: RollOptions): DiceRoll;
  /** Raw dice, for rules that roll in ways no notation says. */
  readonly rng: Rng;
  /** A deterministic id, unique within the encounter: `${prefix}${seq}.${n}`. */
  newId(prefix: string): string;
  /**
   * When an effect with this duration ends, resolved now exactly as the engine's own `add-effect` does
   * (whose turn, which round, which instant of this ruleset's clock), or why it cannot be.
   */
  expiry(duration: Duration): EffectExpiry | Rejection;
}

/** The clock a ruleset declares: its unit and how instants read. */
export interface ClockSpec<T extends RulesetTypes = RulesetTypes> {
  /** 'Mark', 'second', 'tempo', 'turn'. */
  unit: string;
  /** How an instant reads to a GM: "Round 2 · Mark 17". */
  describe(state: EncounterState<T>, at: Instant): string;
  /** The instant `amount` units after `from`, for durations measured in clock units. */
  after?(state: EncounterState<T>, from: Instant, amount: number): Instant | Rejection;
  /**
   * A clock without rounds (a tick timeline): no effect lasts until the end of a round, and the apps
   * offer no durations in rounds and read the fight by its clock, not "round 0".
   */
  roundless?: boolean;
  /**
   * For a roundless clock: the stretches of time that stand in for rounds where figures are kept per
   * round (`roundkeeper simulate`), numbered from 1 (`of` the instant), and what one is called ("10
   * ticks"). Without it a roundless fight has no per-round figures.
   */
  periods?: { of(at: Instant): number; name: string };
  /**
   * For an event of the ruleset's own that renumbers the clock's instants without time passing (in
   * six-second a late arrival takes a slot in the order, and the slots after it move down one): the
   * instant `now` becomes. Undefined for every other event. `stateAt` reads it to say the instant a log
   * entry came at.
   */
  renumbers?(event: RulesetEvent<T>, now: Instant): Instant | undefined;
}

/** Decisions return events (facts) or a rejection: the engine's events and, typed, the ruleset's own. */
export type Decision<E = EngineEvent> = Array<CoreEvent | E> | Rejection;

/** What a ruleset typed with `T` may record: the engine's events and its own. */
export type EventsOf<T extends RulesetTypes> = CoreEvent | RulesetEvent<T>;

/**
 * The one interface every ruleset implements. Methods use method syntax on purpose: a ruleset typed
 * with its own RulesetTypes is then usable wherever the engine expects the general one.
 */
export interface Ruleset<T extends RulesetTypes = RulesetTypes> {
  id: string;
  version: number;
  name: string;
  /** One line for pickers and `--help`. */
  summary: string;
  /** Encounter options; `parse({})` must give the defaults. Describe each field in one line. */
  optionsSchema: z.ZodType<T['options']>;
  /** A combatant's sheet values the GM enters. */
  statsSchema: z.ZodType<T['stats']>;
  /** Schemas of the ruleset's own commands (start, next, act, delay…), by command type. */
  commands: Record<string, z.ZodType>;
  /**
   * Schemas of the ruleset's own events, by event type, with every combatant id they hold marked
   * (`namedId()` / `combatant: 'ref'`): redaction drops or rewrites events from these declarations.
   */
  events?: Record<string, z.ZodType>;
  clock: ClockSpec<T>;
  /**
   * Whether HP may go below 0 (damage past 0 counts down, `set-hp` may set a negative current). Left out,
   * HP stops at 0: a combatant at 0 HP is down, as the ruleset says what that means.
   */
  negativeHp?: boolean;

  /** The ruleset's encounter-wide state at creation. */
  init(options: T['options']): T['rs'];
  /** A new combatant's ruleset state. */
  initCombatant(stats: T['stats'], options: T['options']): T['cs'];
  /** The action catalog for this encounter (custom actions are appended by the engine). */
  catalog(state: EncounterState<T>): ActionDef[];

  /** Decides one of the ruleset's own commands, already validated by its schema. */
  decide(ctx: DecideContext<T>, command: RulesetCommand<T>): Decision<RulesetEvent<T>>;
  /** Applies one of the ruleset's own events; returns undefined for events it does not know. */
  evolve(state: EncounterState<T>, event: RulesetEvent<T>): EncounterState<T> | undefined;
  /**
   * Cascades: called after each event is applied while a command settles (with the draft state), to
   * add what follows from it — a late arrival rolls initiative, a spell resolves when its Mark comes.
   */
  react?(ctx: DecideContext<T>, event: EventsOf<T>): Array<EventsOf<T>>;

  /**
   * Every catalog action for the actor, enabled or with the reason it is not. With `only`, a ruleset may
   * leave out the actions `only` rejects (a simulation's policy asks about its candidates alone); what it
   * returns for the others is the same either way (`only` answers by the action alone: a ruleset may
   * remember which actions it keeps, see `candidates`). With `lean`, the caller reads only each answer's
   * `action`, `enabled`, `code` and `cost` (a simulation's policy): a ruleset may leave out the words and
   * pictures written for a person (`reason`, `preview`, `params`); those four fields are the same either way.
   */
  legalActions(
    state: EncounterState<T>,
    actor: string,
    only?: (action: ActionDef) => boolean,
    lean?: boolean,
  ): LegalAction[];
  timeline(state: EncounterState<T>): Timeline;

  /** Removes the ruleset's secrets from state for a non-GM viewer (secret plans, hidden rolls). */
  redact?(state: EncounterState<T>, viewer: Viewer): EncounterState<T>;
  /**
   * Returns the event as the viewer may see it, or null to drop it. Runs before the engine's own guard,
   * so it may rewrite an event that names a hidden combatant among others (an order without them); an
   * event that still names one afterwards is dropped whole. `hidden` is every combatant id the viewer may
   * not see — those of the state and those that were hidden once and have left it (an undone arrival):
   * use it rather than the state's flags, which know nothing of the departed. What it returns is a view,
   * not a fact: it may leave out what its declaration requires (tempo's plan, for someone else's plan).
   */
  redactEvent?(
    event: EventsOf<T>,
    viewer: Viewer,
    state: EncounterState<T>,
    hidden: ReadonlySet<string>,
  ): EventsOf<T> | EngineEvent | null;
  /** A log line for an event (the engine's or the ruleset's own), or null to use the default. */
  describeEvent?(event: EventsOf<T>, state: EncounterState<T>): string | null;
  /** Extra checks on a custom action's data (flags such as free move units). */
  validateCustomAction?(action: ActionDef): Rejection | undefined;
  /** Whether options may change now (e.g. only between rounds). */
  canSetOptions?(state: EncounterState<T>, next: T['options']): Rejection | undefined;
  /** What the apps show and ask for: gauges, phase words, panels, the palette's command. */
  present?: Presentation<T>;
  /** For `analyze` and `simulate`: the exact initiative distribution, a compiled Round. */
  analysis?: Analysis<T>;
  /**
   * Where a timed event (a lair action) at `at` falls in every round on this clock — `at` is an initiative
   * count, a Mark, a tempo, as the ruleset reads it — with the moment in its words; or the refusal in words
   * (a number the clock does not have). On a clock without rounds, `every` makes it come back every so many
   * units, `at` being its first moment (with `eachRound`, starting again there every round: once a turn).
   * Absent: the clock has no fixed moment in a round for one.
   */
  timedAt?(
    state: EncounterState<T>,
    at: number,
  ): { at: number[]; when: string; every?: number; eachRound?: boolean } | Rejection;
  /**
   * The next round's turns, first first, where the rules already fix them now (the same initiative again,
   * nothing re-rolled, planned or declared when that round begins), as the round's start would schedule
   * them from this state; null where they are not known until then (a re-roll, a plan, someone whose place
   * is still open). Absent: never known ahead (re-rolled every round, or a clock without rounds). The apps'
   * "Next round: …" line.
   */
  nextRoundOrder?(state: EncounterState<T>): string[] | null;
  /** Files of other trackers this ruleset reads into a scenario of its own (`roundkeeper import`). */
  importers?: ScenarioImporter[];
}

/** Another tracker's export read into a scenario of the ruleset (classic: Improved Initiative's). */
export interface ScenarioImporter {
  /** The tracker's name, as a GM knows it ("Improved Initiative"). */
  format: string;
  /**
   * The scenario (a plain scenario file's data) and one line per thing that did not map, or undefined when
   * the data is not in this format. `pick` names one of the file's saved encounters; a name it lacks
   * throws an Error whose message says which there are.
   */
  read(data: unknown, pick?: string): { scenario: Record<string, unknown>; notMapped: string[] } | undefined;
  /**
   * The names of the file's saved encounters, in the file's order (for a GM to pick one), or undefined when
   * the data is not in this format.
   */
  encounters?(data: unknown): string[] | undefined;
  /**
   * The file's creatures and characters for the creature library (each once, as the add form takes
   * them), and one line per thing that did not map; undefined when the data is not in this format.
   */
  creatures?(data: unknown): { creatures: Record<string, unknown>[]; notMapped: string[] } | undefined;
}

export type AnyRuleset = Ruleset<RulesetTypes>;

/** Rulesets by id. The engine knows none by name; adapters pass a registry in. */
export type RulesetRegistry = Readonly<Record<string, AnyRuleset>>;

export function combatantOf<T extends RulesetTypes>(
  state: EncounterState<T>,
  id: string,
): Combatant<T> | undefined {
  return Object.hasOwn(state.combatants, id) ? state.combatants[id] : undefined;
}

/**
 * The combatant with this id, where the rules know it is there (the roster, whose turn it is, an actor
 * already checked): a missing one is a bug in the ruleset, not a GM's mistake, and throws.
 */
export function combatantIn<T extends RulesetTypes>(state: EncounterState<T>, id: string): Combatant<T> {
  const c = combatantOf(state, id);
  if (!c) throw new Error(`The rules looked for a combatant "${id}" who is not in this encounter.`);
  return c;
}
