import type { CoreEvent } from '@roundkeeper/engine';
import { findAction } from './catalog.js';
import { isSecretPlan, type SecretPlanEvent, type TempoEvent } from './events.js';
import type { ExertUse } from './options.js';
import type { State } from './types.js';

const EXERT_WORDS: Record<ExertUse, string> = {
  'another-action': 'to take another action this round',
  'change-tempo': "to change an action's tempo",
  momentum: 'for Momentum',
  'clear-condition': 'to clear a condition',
  'reclaim-mana': 'to reclaim 1 Mana from the lowest committed tier',
  retry: 'to retry a failed Skill roll',
  prepared: 'having prepared in the past',
};

/** Log lines for the ruleset's own events, in the GM's words. */
export function describeEvent(event: CoreEvent | TempoEvent | SecretPlanEvent, state: State): string | null {
  const name = (id: string) => state.combatants[id]?.name ?? id;
  const c =
    'combatant' in event && typeof event.combatant === 'string'
      ? state.combatants[event.combatant]
      : undefined;
  const action = (id: string) => findAction(state, c, id)?.name ?? id;
  if (isSecretPlan(event)) {
    return event.type === 'tempo/planned'
      ? `${name(event.combatant)} plans an action.`
      : `${name(event.combatant)} withdraws a planned action.`;
  }
  switch (event.type) {
    case 'tempo/planning':
      return `Planning phase: each character picks their actions for round ${event.round}.`;
    case 'tempo/acts-next':
      return `${name(event.combatant)} takes the next turn at tempo ${event.tempo}.`;
    case 'tempo/counting':
      return 'The GM counts tempo from 0 to 9.';
    case 'tempo/planned': {
      const p = event.plan;
      const verb = event.replaces ? 'changes a plan to' : 'plans';
      return `${name(event.combatant)} ${verb} ${action(p.action)} at tempo ${p.tempo}${p.slot === 'action' ? '' : ` (${p.slot})`}.`;
    }
    case 'tempo/unplanned':
      return `${name(event.combatant)} withdraws a planned action.`;
    case 'tempo/action-taken':
      return `Tempo ${event.tempo}: ${name(event.combatant)} takes ${action(event.action)}${event.spell ? ` (${event.spell})` : ''}.`;
    case 'tempo/acted': {
      const parts = [`${name(event.combatant)}: ${action(event.action)}`];
      if (event.weapon) parts.push(`with ${event.weapon}`);
      if (event.target) parts.push(`→ ${name(event.target)}`);
      return `${parts.join(' ')}.`;
    }
    case 'tempo/moved':
      return `${name(event.combatant)} moves ${event.distance} (${event.left} left this turn).`;
    case 'tempo/recovered':
      return `${name(event.combatant)} Recovers: Exertion ${event.from} → ${event.to}.`;
    case 'tempo/reacted':
      return `${name(event.combatant)} reacts with ${action(event.reaction)}: ${event.trigger}.`;
    case 'tempo/exerted':
      return `${name(event.combatant)} Exerts ${EXERT_WORDS[event.use]}${event.momentum !== undefined ? ` (+${event.momentum} Momentum)` : ''}: Exertion ${event.exertion}.`;
    case 'tempo/exertion-forced':
      return `${name(event.combatant)} is forced to take ${event.amount} Exertion.`;
    case 'tempo/died':
      return `${name(event.combatant)} dies (${event.reason}).`;
    case 'tempo/scene-ended': {
      const damage = Object.entries(event.damage);
      const list = damage.map(([id, n]) => `${name(id)} ${n}`).join(', ');
      return `The scene ends${list ? `; Exertion damage: ${list}` : ''}.`;
    }
    default:
      return null;
  }
}
