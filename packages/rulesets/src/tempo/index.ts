import type { Instant, LegalAction, Ruleset } from '@roundkeeper/engine';
import { actionsFor, isReaction, TEMPO_CATALOG, validateCustomAction } from './catalog.js';
import { tempoCommands } from './commands.js';
import { decide, react } from './decide.js';
import { describeEvent } from './describe.js';
import { tempoEvents } from './events.js';
import { evolve } from './evolve.js';
import { tempoPresent } from './present.js';
import { planLegality, reactionLegality } from './rules.js';
import { redact, redactEvent } from './secrecy.js';
import { timeline } from './timeline.js';
import { type State, type TempoTypes, tempoOptions, tempoStats } from './types.js';

export type { TempoCombatant, TempoTypes } from './types.js';

/** Every catalog action with whether it can be planned (or, for reactions, used) now, and why not. */
function legalActions(state: State, actor: string): LegalAction[] {
  const c = state.combatants[actor];
  return actionsFor(state, c).map((action): LegalAction => {
    if (!c)
      return {
        action,
        enabled: false,
        code: 'combatant/unknown',
        reason: `There is no combatant "${actor}".`,
        cost: action.cost,
      };
    if (isReaction(action)) {
      const r = reactionLegality(state, c, action);
      return r
        ? { action, enabled: false, code: r.code, reason: r.message, cost: action.cost }
        : { action, enabled: true, cost: action.cost };
    }
    // Magic's tempo is the spell's: the latest tempo stands in for "some tempo still ahead".
    const tempo = action.data?.variableTempo === true ? 9 : undefined;
    const r = planLegality(state, c, action, { tempo });
    if ('code' in r) return { action, enabled: false, code: r.code, reason: r.message, cost: action.cost };
    const from: Instant = state.now ?? { round: state.round, at: [] };
    return {
      action,
      enabled: true,
      cost: r.slot === 'free' ? { actions: 0 } : action.cost,
      preview: { from, to: { round: state.round, at: [r.tempo] }, label: `tempo ${r.tempo} (${r.slot})` },
    };
  });
}

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
  optionsSchema: tempoOptions,
  statsSchema: tempoStats,
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
  decide,
  evolve,
  react,
  legalActions,
  timeline,
  redact,
  redactEvent: (event, viewer) => redactEvent(event, viewer),
  describeEvent,
  validateCustomAction,
  present: tempoPresent,
};
