import { type ActionDef, type LegalAction, notRunning } from '@roundkeeper/engine';
import { actionsOf, isContinuous, isVariable, ticksOf } from './catalog.js';
import { tickNow } from './initiative.js';
import type { State } from './types.js';

/** An action the catalog does not have: the ones it has, by name. */
export function unknownAction(state: State, action: string): string {
  return `There is no action "${action}" here; pick one of ${actionsOf(state)
    .map((x) => x.name)
    .join(', ')}.`;
}

type Legality = { ok: true } | { ok: false; code: string; reason: string };
const no = (code: string, reason: string): Legality => ({ ok: false, code, reason });

/** Whose turn it is, in words: "Bren's (tick 12)". */
function turnWords(state: State): string {
  const now = state.current ? state.combatants[state.current] : undefined;
  return now ? `${now.name}'s turn (tick ${tickNow(state)})` : `nobody's turn (tick ${tickNow(state)})`;
}

/**
 * Rule 4: a combatant acts when its marker is reached; an Active defense (a reaction) is taken outside the
 * turn too, by a combatant whose marker is on the timeline and who is not busy with a continuous action.
 */
export function legality(state: State, id: string, action: ActionDef): Legality {
  const c = state.combatants[id];
  if (!c) return no('combatant/unknown', `There is no combatant "${id}".`);
  const stopped = notRunning(state);
  if (stopped) return no(stopped.code, stopped.message);
  if (!c.active) return no('combatant/defeated', `${c.name} is out of the fight and off the timeline.`);
  if (state.current === id) return { ok: true };
  if (c.cs.waiting) {
    return no(
      'tick/waiting',
      `${c.name} is waiting: press Act now for ${c.name} to step in at this tick first.`,
    );
  }
  if (c.cs.busy) {
    return no(
      'tick/busy',
      `${c.name} is busy with ${c.cs.busy.name} until tick ${c.cs.busy.to}; the GM can interrupt it first.`,
    );
  }
  if (action.kind === 'reaction' && c.cs.tick !== null) return { ok: true };
  const marker = c.cs.tick === null ? 'is not on the timeline yet' : `acts at tick ${c.cs.tick}`;
  return no(
    'turn/not-yours',
    `It is ${turnWords(state)}; ${c.name} ${marker}, and takes ${action.name} when the counter gets there.`,
  );
}

/** The action as the palette offers it: a custom action of a chosen length asks for its ticks. */
export function offered(action: ActionDef): ActionDef {
  if (action.params || !action.custom) return action;
  return { ...action, params: isVariable(action) ? ['ticks', 'target'] : ['target'] };
}

export function legalActions(state: State, id: string): LegalAction[] {
  const c = state.combatants[id];
  return actionsOf(state).map((raw) => {
    const action = offered(raw);
    const ticks = c ? ticksOf(action, c) : (action.cost.ticks ?? 1);
    const cost = { ticks };
    const l = legality(state, id, action);
    if (!l.ok) return { action, enabled: false, reason: l.reason, code: l.code, cost };
    const from = state.current === id ? tickNow(state) : (c?.cs.tick ?? tickNow(state));
    const label = isContinuous(action)
      ? `${action.name} completes at tick ${from + ticks}`
      : `next at tick ${from + ticks}`;
    return {
      action,
      enabled: true,
      cost,
      preview: { from: { round: 0, at: [from] }, to: { round: 0, at: [from + ticks] }, label },
    };
  });
}
