import { type Ruleset, reject } from '@roundkeeper/engine';
import { legalActions } from './actions.js';
import { sixSecondAnalysis } from './analysis.js';
import { builtInCatalog, validateCustomAction } from './catalog.js';
import { describeInstant, shiftInstant } from './clock.js';
import { sixSecondCommands } from './commands.js';
import { decide, react } from './decide.js';
import { describeEvent } from './describe.js';
import { sixSecondEvents } from './events.js';
import { evolve } from './evolve.js';
import { sixSecondOptions, sixSecondStats } from './options.js';
import { sixSecondPresent } from './present.js';
import { redact, redactEvent } from './redact.js';
import { timedAt, timeline } from './timeline.js';
import { nextRoundOrder } from './turns.js';
import type { SixSecondCombatant, SixSecondRound, SixSecondTypes } from './types.js';

export { SIX_SECOND_CATALOG } from './catalog.js';
export type { SixSecondCommand } from './commands.js';
export type { SixSecondEvent } from './events.js';
export type { SixSecondCombatant, SixSecondRound, SixSecondTypes } from './types.js';

/**
 * `six-second` (001): Initiative = Reflex check + Dexterity, ties roll again; every round each character
 * gets a turn of six seconds to spend on actions that take whole seconds, a long action running on into
 * the next turn; delays count down the acting character's own seconds; a delayed turn may interrupt
 * someone else's between two of their actions.
 */
export const sixSecond: Ruleset<SixSecondTypes> = {
  id: 'six-second',
  version: 1,
  name: 'Six-Second Turns',
  summary:
    'Initiative = Reflex check + Dexterity; each turn has 6 seconds to spend on actions of whole seconds.',
  get optionsSchema() {
    return sixSecondOptions();
  },
  get statsSchema() {
    return sixSecondStats();
  },
  commands: sixSecondCommands,
  events: sixSecondEvents,
  clock: {
    unit: 'second',
    describe: describeInstant,
    // A late arrival's slot in the order moves those from `shiftFrom` down one (the clock's instant too).
    renumbers: (event, now) =>
      event.type === 'six-second/order' && event.shiftFrom !== undefined
        ? shiftInstant(now, event.shiftFrom)
        : undefined,
  },
  init: (): SixSecondRound => ({ order: [], interrupted: [] }),
  initCombatant: (): SixSecondCombatant => ({
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
  timedAt,
  nextRoundOrder,
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
  analysis: sixSecondAnalysis,
};
