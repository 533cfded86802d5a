import type { Gauge, Json, Panel, PanelItem, Presentation } from '@roundkeeper/engine';
import { actionsFor } from './catalog.js';
import { tempoCreatures } from './library.js';
import { maxExertion, sideIndex } from './rules.js';
import type { State, TempoTypes } from './types.js';

const planning = (state: State) => state.status === 'running' && state.rs.phase === 'planning';

/**
 * Tempo's words for the apps: Exertion against its maximum, the secret plan (the GM's and the player's
 * own), "Planning" as the phase, and palette clicks that plan an action while the round is being planned.
 */
export const tempoPresent: Presentation<TempoTypes> = {
  /** Ready creatures for the library (library.ts). */
  creatures: tempoCreatures,
  gauges(state, c) {
    const max = maxExertion(c);
    const out: Gauge[] = [
      { label: 'Exertion', value: `${c.cs.exertion}/${max}`, fill: c.cs.exertion / max },
      { label: 'Planned', value: `${c.cs.plan.length}/${state.options.actionsPerRound}`, private: true },
    ];
    if (c.cs.momentum) out.push({ label: 'Momentum', value: String(c.cs.momentum) });
    return out;
  },
  /** While plans are made: PCs, then NPCs, each in the roster's order (003 breaks a tie so). */
  steadyOrder: (state) =>
    planning(state)
      ? [...state.roster]
          .filter((id) => state.combatants[id])
          .sort((a, b) => sideIndex(state.combatants[a]!) - sideIndex(state.combatants[b]!))
      : null,
  phase: (state) =>
    planning(state) ? `Each character chooses ${state.options.actionsPerRound} actions in secret` : null,
  /** `rules:plans`: the actor's planned actions not yet taken, by what they are and their tempo. */
  choices(state, actor, name) {
    const c = state.combatants[actor];
    if (name !== 'plans' || !c) return [];
    const actions = actionsFor(state, c);
    return c.cs.plan
      .filter((p) => !p.taken)
      .map((p) => ({
        value: p.id,
        label: `${actions.find((a) => a.id === p.action)?.name ?? p.action}${p.spell ? ` (${p.spell})` : ''} at tempo ${p.tempo}`,
      }));
  },
  actionCommand(_state, actor, action): { type: string; [key: string]: Json } {
    // Actions are planned (in the planning phase, or changed later); reactions answer a trigger now.
    if (action.kind === 'reaction') return { type: 'react', actor, reaction: action.id, trigger: 'GM call' };
    return { type: 'plan', actor, action: action.id };
  },
  paletteHint: (state) => (planning(state) ? 'click to plan' : null),
  panels(state, c) {
    if (state.status !== 'running') return [];
    const actions = actionsFor(state, c);
    const items: PanelItem[] = c.cs.plan.map((p) => ({
      label: `${actions.find((a) => a.id === p.action)?.name ?? p.action}${p.spell ? ` (${p.spell})` : ''}`,
      badge: `tempo ${p.tempo}`,
      done: p.taken,
      ...(p.taken
        ? {}
        : { remove: { label: 'Withdraw', command: { type: 'unplan', actor: c.id, plan: p.id } } }),
    }));
    const panels: Panel[] = [
      {
        title: 'Plan',
        // 003: plans are picked in secret and happen at their tempo.
        help: 'Pick your actions for the round in secret; they happen at their tempo.',
        items,
      },
    ];
    // On its turn the character takes the planned action (its target, weapon, roll); then the turn ends
    // (the character's player or the GM ends it, so the words name neither's button).
    if (state.current === c.id) {
      panels.unshift({
        title: 'Take the planned action',
        help: 'It is this tempo: say how the planned action goes, then end the turn; the count goes on.',
        act: true,
        fixed: { actor: c.id },
      });
    }
    return panels;
  },
};
