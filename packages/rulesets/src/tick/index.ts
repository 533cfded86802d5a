import type { Ruleset } from '@roundkeeper/engine';
import { TICK_CATALOG, validateCustomAction } from './catalog.js';
import { tickCommands } from './commands.js';
import { decide } from './decide.js';
import { describeEvent } from './describe.js';
import { tickEvents } from './events.js';
import { evolve } from './evolve.js';
import { legalActions } from './legal.js';
import { tickOptions, tickStats } from './options.js';
import { tickAnalysis, tickPresent } from './present.js';
import { react } from './react.js';
import { clock, timedAt, timeline } from './timeline.js';
import type { TickTypes } from './types.js';

export type { TickCommand } from './commands.js';
export type { TickEvent } from './events.js';
export type { TickCombatant, TickTypes } from './types.js';

/**
 * `tick`: a tick timeline with no rounds (docs/rulesets/tick.md). Everyone rolls onto the timeline; the
 * lowest marker acts, its action costs ticks and moves its marker on; continuous actions, waiting,
 * latecomers at the current tick plus their roll.
 */
export const tick: Ruleset<TickTypes> = {
  id: 'tick',
  version: 1,
  name: 'Tick Timeline',
  summary: 'No rounds: every action costs ticks; the lowest marker on the timeline acts next.',
  get optionsSchema() {
    return tickOptions();
  },
  get statsSchema() {
    return tickStats();
  },
  commands: tickCommands,
  events: tickEvents,
  clock,
  init: () => ({ arrivals: 0 }),
  initCombatant: () => ({
    initiative: null,
    tick: null,
    arrival: null,
    waiting: false,
    busy: null,
    last: null,
  }),
  catalog: () => [...TICK_CATALOG],
  decide,
  evolve,
  react,
  legalActions,
  timeline,
  timedAt,
  describeEvent,
  validateCustomAction,
  present: tickPresent,
  analysis: tickAnalysis,
};
