import type { Instant, Ruleset } from '@roundkeeper/engine';
import { tempoAnalysis } from './analysis.js';
import { TEMPO_CATALOG, validateCustomAction } from './catalog.js';
import { tempoCommands } from './commands.js';
import { decide, react } from './decide.js';
import { describeEvent } from './describe.js';
import { tempoEvents } from './events.js';
import { evolve } from './evolve.js';
import { legalActions } from './legal.js';
import { tempoOptions, tempoStats } from './options.js';
import { tempoPresent } from './present.js';
import { redact, redactEvent } from './redact.js';
import { timedAt, timeline } from './timeline.js';
import type { State, TempoTypes } from './types.js';

export type { TempoCommand } from './commands.js';
export type { TempoEvent } from './events.js';
export type { TempoCombatant, TempoTypes } from './types.js';

/**
 * `tempo` (003): each round opens with a secret planning phase (2 actions per character), then the GM
 * counts tempo 0→9; at each tempo the PCs act, then the NPCs. Unique Action Restriction, Weapon Speed,
 * Normal Move, reactions gated by tempo, Exert/Exertion, Extra and Free actions.
 */
export const tempo: Ruleset<TempoTypes> = {
  id: 'tempo',
  version: 1,
  name: 'Tempo',
  summary: 'Plan 2 actions in secret; the GM counts tempo 0→9; PCs act before NPCs at each tempo.',
  get optionsSchema() {
    return tempoOptions();
  },
  get statsSchema() {
    return tempoStats();
  },
  commands: tempoCommands,
  events: tempoEvents,
  clock: {
    unit: 'tempo',
    describe(_state: State, at: Instant): string {
      const [t, side] = at.at;
      if (t === undefined) return `Round ${at.round} · planning`;
      return `Round ${at.round} · tempo ${t}${side === undefined ? '' : side === 0 ? ' (PCs)' : ' (NPCs)'}`;
    },
    after(_state: State, from: Instant, amount: number): Instant {
      const t = (from.at[0] ?? 0) + amount;
      return { round: from.round + Math.floor(t / 10), at: [t % 10] };
    },
  },
  init: () => ({ phase: 'setup', turnNumber: 0, scene: 1 }),
  initCombatant: (stats) => ({
    exertion: 0,
    exertedThisScene: false,
    momentum: 0,
    held: stats.held ?? stats.weapons.slice(0, 1).map((w) => w.name),
    plan: [],
    exertActions: 0,
    turn: null,
    reactions: [],
    guarding: null,
    rested: false,
    dead: false,
  }),
  catalog: () => TEMPO_CATALOG,
  decide: decide,
  evolve,
  react: react,
  legalActions,
  timeline,
  timedAt,
  redact,
  redactEvent: redactEvent,
  describeEvent: describeEvent,
  validateCustomAction,
  present: tempoPresent,
  analysis: tempoAnalysis,
};
