import type { Instant, Ruleset } from '@roundkeeper/engine';
import { STAMINA_CATALOG } from './catalog.js';
import { staminaCommands } from './commands.js';
import { decide, react } from './decide.js';
import { describeEvent } from './describe.js';
import { staminaEvents } from './events.js';
import { evolve } from './evolve.js';
import { nextRoundOrder } from './initiative.js';
import { legalActions, validateCustomAction } from './legal.js';
import { staminaOptions, staminaStats } from './options.js';
import { staminaAnalysis, staminaPresent } from './present.js';
import { redact, redactEvent } from './redact.js';
import { timedAt, timeline } from './timeline.js';
import { freshArcane, freshTurn, type StaminaTypes, type State } from './types.js';

export type { StaminaCommand } from './commands.js';
export type { StaminaEvent } from './events.js';
export type { StaminaTypes } from './types.js';

/**
 * `stamina` (seed 004): turns in initiative order, rechecked every round; every action has a stamina cost and
 * a turn requirement — one action with a requirement of one or more per turn, the first move free of its
 * requirement; defensive actions bar attacks until the next turn; one reaction between turns.
 */
export const stamina: Ruleset<StaminaTypes> = {
  id: 'stamina',
  version: 1,
  name: 'Stamina & Turn Requirements',
  summary:
    'Initiative order rechecked each round; actions cost stamina and defense; one turn-requirement action a turn.',
  get optionsSchema() {
    return staminaOptions();
  },
  get statsSchema() {
    return staminaStats();
  },
  commands: staminaCommands,
  events: staminaEvents,
  clock: {
    unit: 'turn',
    describe(state: State, at: Instant): string {
      const c = state.current ? state.combatants[state.current] : undefined;
      return `Round ${at.round}${c ? ` · ${c.name}'s turn` : ''}`;
    },
  },
  init: () => ({ spent: [] }),
  initCombatant: (stats) => ({
    readied: Object.entries(stats.weapons).flatMap(([w, weapon]) => (weapon.readied ? [w] : [])),
    loaded: Object.entries(stats.weapons).flatMap(([w, weapon]) => (weapon.loaded ? [w] : [])),
    stamina: stats.stamina,
    defense: stats.defense,
    initiative: null,
    key: null,
    turn: freshTurn(),
    roundTaken: [],
    reactionTaken: null,
    arcane: freshArcane(),
    reachPaid: [],
    performing: null,
  }),
  catalog: () => STAMINA_CATALOG,
  decide: decide,
  evolve,
  react: react,
  legalActions,
  timeline,
  timedAt,
  nextRoundOrder,
  describeEvent: describeEvent,
  redact,
  redactEvent: redactEvent,
  validateCustomAction,
  present: staminaPresent,
  analysis: staminaAnalysis,
};
