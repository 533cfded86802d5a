import type { Ruleset } from '@roundkeeper/engine';
import { opend6Analysis } from './analysis.js';
import { OPEND6_CATALOG, validateCustomAction } from './catalog.js';
import { opend6Commands } from './commands.js';
import { decide } from './decide.js';
import { describeEvent } from './describe.js';
import { opend6Events } from './events.js';
import { evolve } from './evolve.js';
import { canSetOptions } from './initiative.js';
import { legalActions } from './legal.js';
import { opend6Options, opend6Stats } from './options.js';
import { opend6Present } from './present.js';
import { react } from './react.js';
import { redact, redactEvent } from './redact.js';
import { nextRoundOrder } from './round.js';
import { clock, timedAt, timeline } from './timeline.js';
import type { Opend6Types } from './types.js';

export type { Opend6Command } from './commands.js';
export type { Opend6Event } from './events.js';
export type { Opend6Options, Opend6Stats, Opend6Types } from './types.js';
export { OPEND6_CATALOG };

export const openD6: Ruleset<Opend6Types> = {
  id: 'opend6',
  version: 1,
  name: 'OpenD6',
  summary:
    'D6 System rounds: Perception initiative with the Wild Die, declared actions at −1D each beyond the first.',
  get optionsSchema() {
    return opend6Options();
  },
  get statsSchema() {
    return opend6Stats();
  },
  commands: opend6Commands,
  events: opend6Events,
  clock,
  init: () => ({ acting: [], slots: [], happened: [], openRoll: null }),
  initCombatant: (stats) => ({
    initiative: null,
    orderKey: null,
    characterPoints: stats.characterPoints,
    declared: null,
    used: 0,
    waiting: false,
    unable: null,
  }),
  catalog: () => OPEND6_CATALOG,
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
  canSetOptions,
  present: opend6Present,
  analysis: opend6Analysis,
};
