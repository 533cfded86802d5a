import type { Ruleset } from '@roundkeeper/engine';
import { CLASSIC_CATALOG } from './catalog.js';
import { classicCommands } from './commands.js';
import { decide } from './decide.js';
import { describeEvent } from './describe.js';
import { classicEvents } from './events.js';
import { evolve } from './evolve.js';
import { improvedInitiativeImporter } from './improved-initiative.js';
import { legalActions } from './legal.js';
import { classicOptions, classicStats } from './options.js';
import { classicAnalysis, classicPresent } from './present.js';
import { react } from './react.js';
import { redactEvent } from './redact.js';
import { nextRoundOrder } from './round.js';
import { fresh } from './state.js';
import { clock, timedAt, timeline } from './timeline.js';
import type { ClassicTypes } from './types.js';

export type { ClassicCommand } from './commands.js';
export type { ClassicEvent } from './events.js';
export { classicOptions, classicStats } from './options.js';
export type { ClassicCombatant, ClassicRound, ClassicTypes } from './types.js';

/**
 * `classic`: d20 + modifier, highest first; ties by modifier, then a roll-off. One action, one bonus
 * action and one reaction; delay and ready; late arrivals; conditions with durations; HP.
 * The smallest complete ruleset, and the example every other ruleset follows.
 */
export const classic: Ruleset<ClassicTypes> = {
  id: 'classic',
  version: 1,
  name: 'Classic',
  summary: 'd20 + modifier, highest first; one action, one bonus action, one reaction.',
  get optionsSchema() {
    return classicOptions();
  },
  get statsSchema() {
    return classicStats();
  },
  commands: classicCommands,
  events: classicEvents,
  clock,
  init: () => ({}),
  initCombatant: () => ({ initiative: null, key: null, delaying: false, readied: null, used: fresh() }),
  catalog: () => CLASSIC_CATALOG,
  decide,
  evolve,
  react,
  legalActions,
  timeline,
  timedAt,
  nextRoundOrder,
  describeEvent,
  redactEvent,
  present: classicPresent,
  analysis: classicAnalysis,
  importers: [improvedInitiativeImporter],
};
