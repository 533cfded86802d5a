import type { TaraFact } from './events.js';
import { markOf } from './marks.js';
import type { TaraState } from './types.js';

const MODE_NAMES = {
  full: 'as a Full Round',
  simple: 'as a Simple Round',
  'very-simply': 'Very Simply',
} as const;

/** `1 Mark`, `3 Marks`. */
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Log lines in the GM's words. */
export function describeTaraEvent(event: TaraFact, state: TaraState): string | null {
  const name = (id: string | undefined) => (id === undefined ? '?' : (state.combatants[id]?.name ?? id));
  switch (event.type) {
    case 'tara/round-mode':
      return `Round ${event.round} is played ${MODE_NAMES[event.mode]}.`;
    case 'tara/initiative': {
      const who = name(event.combatant);
      const parts: string[] = [];
      if (event.dice !== null) parts.push(`${event.dice} rolled`);
      parts.push(`Initiative ${event.characteristic}`);
      if (event.modifiers !== 0) parts.push(`modifiers ${event.modifiers}`);
      // 000: "The Maximum Initiative Score for any character is 30, no matter what bonuses or rerolls are added."
      const total = (event.dice ?? 0) + event.characteristic + event.modifiers;
      const bound = total > 30 ? `: ${total}, capped at 30` : total < 0 ? `: ${total}, raised to 0` : '';
      let line = `${who}: Initiative Roll ${event.initiativeRoll} (${parts.join(', ')}${bound})`;
      if (event.delay) line += `, delaying: half rounded ${event.delay}`;
      if (event.carryOver > 0) line += `, −${event.carryOver} carried over`;
      if (event.carryOverLeft) line += ` (${event.carryOverLeft} more into the next Round)`;
      return `${line} → Initiative Score ${event.score}.`;
    }
    case 'tara/round-order': {
      const groups = event.order;
      if (groups.length === 0)
        return 'Order: nobody has a Mark to act at this Round (no Initiative Score above 0).';
      return `Order: ${groups.map((g) => (g.length > 1 ? `${g.map(name).join(' & ')} (simultaneous)` : name(g[0]))).join(', ')}.`;
    }
    case 'tara/acted': {
      const who = name(event.combatant);
      let line = `${who} at Mark ${event.mark}: ${event.name}`;
      if (event.units !== undefined) line += ` (${count(event.units, 'Unit')})`;
      if (event.target) line += ` → ${name(event.target)}`;
      if (event.defending) line += ' (defending: someone moved into melee with them, no Set needed)';
      line += `, ${count(event.marks, 'Mark')} spent, ${event.marksLeft} left`;
      if (event.exception) line += ' (the once-per-Round Full Action without enough Initiative)';
      if (event.completesAt) {
        const at = event.completesAt;
        line += `; done at Mark ${markOf(at)} of round ${at.round} (${count(event.carryOver ?? 0, 'Mark')} carried over)`;
      }
      if (event.resolvesAt) {
        const at = event.resolvesAt;
        line += `; goes off at Mark ${markOf(at)}${at.round !== event.round ? ` of round ${at.round}` : ''}`;
        if (event.carryOver) line += ` (${count(event.carryOver, 'Mark')} carried over)`;
      }
      return `${line}.`;
    }
    case 'tara/attack': {
      let line = `${name(event.combatant)} attacks${event.target ? ` ${name(event.target)}` : ''} at Mark ${event.mark} (${event.number} of ${event.of})`;
      if (event.desperate) {
        line += ` — Desperate Shot, dice ${(event.faces ?? []).join(', ')}${event.miss ? ': a natural 5 or less, it misses' : ''}`;
      }
      return `${line}.`;
    }
    case 'tara/attack-forfeited':
      return `${name(event.combatant)}'s attack ${event.number} of ${event.of} would fall at Mark ${event.mark}, below Mark 1: forfeited.`;
    case 'tara/spell-resolved':
      return `${name(event.combatant)}'s ${event.spell} goes off at Mark ${event.mark}.`;
    case 'tara/action-completed':
      return `${name(event.combatant)} finishes ${event.name} at Mark ${event.mark}.`;
    case 'tara/carry-dropped':
      return `${name(event.combatant)}'s ${event.name} is cut short; nothing carries over into the next Round.`;
    case 'tara/spell-fizzled':
      return `${name(event.combatant)}'s ${event.spell} fizzles.`;
    case 'tara/simultaneous':
      return `${name(event.combatant)} acts at Mark ${event.mark} simultaneously with ${event.with.map(name).join(' and ')} (same Mark, Initiative, Agility and Intellect).`;
    case 'turn/started': {
      const who = name(event.combatant);
      return state.now ? `Mark ${markOf(state.now)}: ${who} acts.` : `${who} acts.`;
    }
    case 'tara/forfeited':
      return `${name(event.combatant)} forfeits ${count(event.marks, 'unused Mark')}.`;
    case 'tara/round-over':
      return `Round ${event.round} is over; press Next to roll Initiative for the next Round.`;
    case 'tara/joins-next-round':
      return `${name(event.combatant)}'s Mark has already passed this Round; they act from the next Round.`;
    default:
      return null;
  }
}
