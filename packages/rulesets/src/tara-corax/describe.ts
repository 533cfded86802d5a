import type { EngineEvent, Instant } from '@roundkeeper/engine';
import { markOf } from './marks.js';
import type { TaraState } from './types.js';

const MODE_NAMES = {
  full: 'as a Full Round',
  simple: 'as a Simple Round',
  'very-simply': 'Very Simply',
} as const;

/** Log lines in the GM's words. */
export function describeTaraEvent(event: EngineEvent, state: TaraState): string | null {
  const name = (id: unknown) => (typeof id === 'string' ? (state.combatants[id]?.name ?? id) : '?');
  const who = name(event.combatant);
  switch (event.type) {
    case 'tara/round-mode':
      return `Round ${String(event.round)} is played ${MODE_NAMES[event.mode as keyof typeof MODE_NAMES] ?? String(event.mode)}.`;
    case 'tara/initiative': {
      const parts: string[] = [];
      if (event.dice !== null) parts.push(`${String(event.dice)} rolled`);
      parts.push(`Initiative ${String(event.characteristic)}`);
      if ((event.modifiers as number) !== 0) parts.push(`modifiers ${String(event.modifiers)}`);
      // 000: "The Maximum Initiative Score for any character is 30, no matter what bonuses or rerolls are added."
      const total =
        ((event.dice as number | null) ?? 0) + (event.characteristic as number) + (event.modifiers as number);
      const bound = total > 30 ? `: ${total}, capped at 30` : total < 0 ? `: ${total}, raised to 0` : '';
      let line = `${who}: Initiative Roll ${String(event.initiativeRoll)} (${parts.join(', ')}${bound})`;
      if (event.delay) line += `, delaying: half rounded ${String(event.delay)}`;
      if ((event.carryOver as number) > 0) line += `, −${String(event.carryOver)} carried over`;
      if (event.carryOverLeft) line += ` (${String(event.carryOverLeft)} more into the next Round)`;
      return `${line} → Initiative Score ${String(event.score)}.`;
    }
    case 'tara/round-order': {
      const groups = event.order as string[][];
      if (groups.length === 0)
        return 'Order: nobody has a Mark to act at this Round (no Initiative Score above 0).';
      return `Order: ${groups.map((g) => (g.length > 1 ? `${g.map(name).join(' & ')} (simultaneous)` : name(g[0]))).join(', ')}.`;
    }
    case 'tara/acted': {
      let line = `${who} at Mark ${String(event.mark)}: ${String(event.name)}`;
      if (event.units !== undefined) line += ` (${String(event.units)} Units)`;
      if (event.target) line += ` → ${name(event.target)}`;
      if (event.defending) line += ' (defending: someone moved into melee with them, no Set needed)';
      line += `, ${String(event.marks)} Marks spent, ${String(event.marksLeft)} left`;
      if (event.exception) line += ' (the once-per-Round Full Action without enough Initiative)';
      if (event.completesAt) {
        const at = event.completesAt as unknown as Instant;
        line += `; done at Mark ${markOf(at)} of round ${at.round} (${String(event.carryOver)} Marks carried over)`;
      }
      if (event.resolvesAt) {
        const at = event.resolvesAt as unknown as Instant;
        line += `; goes off at Mark ${markOf(at)}${at.round !== event.round ? ` of round ${at.round}` : ''}`;
        if (event.carryOver) line += ` (${String(event.carryOver)} Marks carried over)`;
      }
      return `${line}.`;
    }
    case 'tara/attack': {
      let line = `${who} attacks${event.target ? ` ${name(event.target)}` : ''} at Mark ${String(event.mark)} (${String(event.number)} of ${String(event.of)})`;
      if (event.desperate) {
        line += ` — Desperate Shot, dice ${(event.faces as number[]).join(', ')}${event.miss ? ': a natural 5 or less, it misses' : ''}`;
      }
      return `${line}.`;
    }
    case 'tara/attack-forfeited':
      return `${who}'s attack ${String(event.number)} of ${String(event.of)} would fall at Mark ${String(event.mark)}, below Mark 1: forfeited.`;
    case 'tara/spell-resolved':
      return `${who}'s ${String(event.spell)} goes off at Mark ${String(event.mark)}.`;
    case 'tara/action-completed':
      return `${who} finishes ${String(event.name)} at Mark ${String(event.mark)}.`;
    case 'tara/carry-dropped':
      return `${who}'s ${String(event.name)} is cut short; nothing carries over into the next Round.`;
    case 'tara/spell-fizzled':
      return `${who}'s ${String(event.spell)} fizzles.`;
    case 'tara/simultaneous':
      return `${who} acts at Mark ${String(event.mark)} simultaneously with ${(event.with as string[]).map(name).join(' and ')} (same Mark, Initiative, Agility and Intellect).`;
    case 'turn/started':
      return state.now ? `Mark ${markOf(state.now)}: ${who} acts.` : `${who} acts.`;
    case 'tara/forfeited':
      return `${who} forfeits ${String(event.marks)} unused Marks.`;
    case 'tara/round-over':
      return `Round ${String(event.round)} is over; press Next to roll Initiative for the next Round.`;
    case 'tara/joins-next-round':
      return `${who}'s Mark has already passed this Round; they act from the next Round.`;
    default:
      return null;
  }
}
