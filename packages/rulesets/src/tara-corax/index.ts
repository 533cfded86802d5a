import { humanize, type Instant, type Rejection, type Ruleset, reject } from '@roundkeeper/engine';
import { taraAnalysis } from './analysis.js';
import { TARA_CATALOG, validateCustomAction } from './catalog.js';
import { taraCommands } from './commands.js';
import { decide, react } from './decide.js';
import { describeTaraEvent } from './describe.js';
import { taraEvents } from './events.js';
import { evolveTara } from './evolve.js';
import { instantAt, markOf } from './marks.js';
import { taraOptions, taraStats } from './options.js';
import { taraPresent } from './present.js';
import { redact, redactEvent } from './redact.js';
import { currentMark, legalActions } from './rules.js';
import { taraTimedAt, taraTimeline } from './timeline.js';
import type { TaraCombatant, TaraOptions, TaraRound, TaraState, TaraTypes } from './types.js';

export type { TaraCommand } from './commands.js';
export type { TaraEvent } from './events.js';
export type { TaraCombatant, TaraRound, TaraTypes } from './types.js';

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

/** Options change between Rounds only. */
function canSetOptions(state: TaraState, nextOptions: TaraOptions): Rejection | undefined {
  if (state.status !== 'running' || state.rs.phase !== 'round') return undefined;
  const changed = taraOptions()
    .keyof()
    .options.filter((k) => nextOptions[k] !== state.options[k]);
  if (changed.length === 0) return undefined;
  return reject(
    'options/mid-round',
    `Options change between Rounds: round ${state.round} is under way. Press Next until it ends, then change ${changed.map((k) => humanize(k).toLowerCase()).join(', ')}.`,
  );
}

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
  get optionsSchema() {
    return taraOptions();
  },
  get statsSchema() {
    return taraStats();
  },
  commands: taraCommands,
  events: taraEvents,
  clock: {
    unit: 'Mark',
    describe: (_state, at: Instant) => `Round ${at.round} · Mark ${markOf(at)}`,
    after: (_state, from: Instant, amount: number) => {
      const at = instantAt(from.round, markOf(from) - amount, [], 'resolve');
      return { round: at.round, at: at.at.slice(0, 1) };
    },
  },
  init: initRound,
  initCombatant,
  catalog: () => TARA_CATALOG,
  decide,
  evolve: evolveTara,
  react,
  legalActions,
  timeline: taraTimeline,
  timedAt: taraTimedAt,
  redact,
  redactEvent,
  describeEvent: describeTaraEvent,
  validateCustomAction,
  canSetOptions,
  present: taraPresent,
  analysis: taraAnalysis,
};

export { currentMark };
