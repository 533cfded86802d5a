import type { EngineEvent } from '@roundkeeper/engine';
import { findAction } from './catalog.js';
import type { PlanItem, State } from './types.js';

const EXERT_WORDS: Record<string, string> = {
  'another-action': 'to take another action this round',
  'change-tempo': "to change an action's tempo",
  momentum: 'for Momentum',
  'clear-condition': 'to clear a condition',
  'reclaim-mana': 'to reclaim 1 Mana from the lowest committed tier',
  retry: 'to retry a failed Skill roll',
  prepared: 'having prepared in the past',
};

/** Log lines for the ruleset's own events, in the GM's words. */
export function describeEvent(event: EngineEvent, state: State): string | null {
  const name = (id: unknown) => (typeof id === 'string' ? (state.combatants[id]?.name ?? id) : '?');
  const c = typeof event.combatant === 'string' ? state.combatants[event.combatant] : undefined;
  const action = (id: unknown) => (typeof id === 'string' ? (findAction(state, c, id)?.name ?? id) : '?');
  switch (event.type) {
    case 'tempo/planning':
      return `Planning phase: each character picks their actions for round ${String(event.round)}.`;
    case 'tempo/acts-next':
      return `${name(event.combatant)} takes the next turn at tempo ${String(event.tempo)}.`;
    case 'tempo/counting':
      return 'The GM counts tempo from 0 to 9.';
    case 'tempo/planned': {
      if (event.secret) return `${name(event.combatant)} plans an action.`;
      const p = event.plan as unknown as PlanItem;
      const verb = event.replaces ? 'changes a plan to' : 'plans';
      return `${name(event.combatant)} ${verb} ${action(p.action)} at tempo ${p.tempo}${p.slot === 'action' ? '' : ` (${p.slot})`}.`;
    }
    case 'tempo/unplanned':
      return `${name(event.combatant)} withdraws a planned action.`;
    case 'tempo/action-taken':
      return `Tempo ${String(event.tempo)}: ${name(event.combatant)} takes ${action(event.action)}${event.spell ? ` (${String(event.spell)})` : ''}.`;
    case 'tempo/acted': {
      const parts = [`${name(event.combatant)}: ${action(event.action)}`];
      if (event.weapon) parts.push(`with ${String(event.weapon)}`);
      if (event.target) parts.push(`→ ${name(event.target)}`);
      return `${parts.join(' ')}.`;
    }
    case 'tempo/moved':
      return `${name(event.combatant)} moves ${String(event.distance)} (${String(event.left)} left this turn).`;
    case 'tempo/recovered':
      return `${name(event.combatant)} Recovers: Exertion ${String(event.from)} → ${String(event.to)}.`;
    case 'tempo/reacted':
      return `${name(event.combatant)} reacts with ${action(event.reaction)}: ${String(event.trigger)}.`;
    case 'tempo/exerted':
      return `${name(event.combatant)} Exerts ${EXERT_WORDS[String(event.use)] ?? ''}${typeof event.momentum === 'number' ? ` (+${event.momentum} Momentum)` : ''}: Exertion ${String(event.exertion)}.`;
    case 'tempo/exertion-forced':
      return `${name(event.combatant)} is forced to take ${String(event.amount)} Exertion.`;
    case 'tempo/died':
      return `${name(event.combatant)} dies (${String(event.reason)}).`;
    case 'tempo/scene-ended': {
      const damage = Object.entries((event.damage ?? {}) as Record<string, number>);
      const list = damage.map(([id, n]) => `${name(id)} ${n}`).join(', ');
      return `The scene ends${list ? `; Exertion damage: ${list}` : ''}.`;
    }
    default:
      return null;
  }
}
