import { catalog } from './actions.js';
import type { AnyEvent } from './events.js';
import { showEffective } from './penalty.js';
import type { State } from './types.js';

/** A log line for one of OpenD6's events, or null for the engine's default. */
export function describeEvent(event: AnyEvent, state: State): string | null {
  const name = (id: string) => state.combatants[id]?.name ?? id;
  switch (event.type) {
    case 'opend6/initiative': {
      const members = event.members.map(name).join(', ');
      if (!event.rolled) return null;
      const cp = event.characterPoints ?? 0;
      const extra =
        cp > 0
          ? ` + ${cp} Character Point Wild Di${cp === 1 ? 'e' : 'ce'} (${(event.characterPointRolls ?? []).join(', ')})`
          : '';
      const b = event.bonus;
      const bonus = b ? ` incl. bonus +${b.search} search, +${b.reflexes} Reflexes, +${b.ranks} ranks` : '';
      return `Initiative ${members}: Perception ${String(event.perception)} = ${String(event.perceptionRoll)}${bonus}${extra} → ${String(event.total)}.`;
    }
    case 'opend6/turn': {
      const members = event.members.map(name);
      // A single character's turn already reads "Ana's turn." from the engine.
      if (members.length < 2 && !event.resumed) return null;
      return `${members.join(', ')} ${members.length > 1 ? 'act together' : 'acts'}${event.resumed ? ' (after waiting)' : ''}.`;
    }
    case 'opend6/declared': {
      const penalty = event.penalty;
      return `${event.combatants.map(name).join(', ')} declare${event.combatants.length > 1 ? '' : 's'} ${String(event.actions)} action${event.actions === 1 ? '' : 's'}: ${penalty > 0 ? `−${penalty}D on every skill and attribute roll this round (${showEffective(event.effective)})` : 'no penalty'}.`;
    }
    case 'opend6/acted': {
      const action = catalog(state).find((a) => a.id === event.action)?.name ?? String(event.name);
      const n =
        event.number === null ? 'free action' : `action ${String(event.number)} of ${String(event.declared)}`;
      const how =
        event.mode === 'interrupt'
          ? ' (interrupting)'
          : event.mode === 'wait-again'
            ? ' (waiting again after interrupting)'
            : event.mode === 'move-up'
              ? ' (moved up)'
              : '';
      return `${name(event.combatant)}: ${action}${event.target ? ` → ${name(event.target)}` : ''}${how}, ${n}.`;
    }
    case 'opend6/interrupted':
      return `${name(event.combatant)} interrupts ${name(event.interrupted)} before the result.`;
    case 'opend6/resumed':
      return `${name(event.combatant)} stops waiting and acts after this turn.`;
    case 'opend6/result-declared':
      return `The GM declares the result of ${name(event.combatant)}'s ${String(event.purpose)}.`;
    case 'opend6/actions-lost':
      return `${name(event.combatant)} loses ${String(event.count)} unused action${event.count === 1 ? '' : 's'} (${String(event.reason)}).`;
    case 'opend6/turn-lost':
      return `${name(event.combatant)} loses the action this round (${String(event.reason)}).`;
    case 'opend6/incapacitated':
      return `${name(event.combatant)} is ${String(event.condition)}.`;
    case 'opend6/recovered':
      return `${name(event.combatant)} can act again.`;
    case 'opend6/joins-next-round':
      if (event.reason === 'recovered') {
        const how =
          state.options.initiativeMethod === 'first-significant-action'
            ? 'set; placed after everyone'
            : 'rolled; rolled on recovering';
        return `${name(event.combatant)} was unable to act when initiative was ${how}, this place holds from round ${state.round + 1}.`;
      }
      return `${name(event.combatant)}'s place in the order has passed; they act from next round.`;
    default:
      return null;
  }
}
