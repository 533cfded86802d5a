import { unschedule } from '@roundkeeper/engine';
import type { AnyEvent } from './events.js';
import { advance, place, rollFirstTick, tickNow } from './initiative.js';
import type { Ctx } from './types.js';

/** Rule 7: a latecomer (or one back in the fight) rolls and enters at the current tick plus the roll. */
function join(ctx: Ctx, id: string): AnyEvent[] {
  const { state } = ctx;
  const first = rollFirstTick(ctx, id, tickNow(state));
  const placed = place(ctx, id, first.tick, state.rs.arrivals);
  // Nobody acting (everyone waiting): the newcomer's marker is the lowest, and the counter goes there.
  const acts = state.current ? [] : advance(state, [placed.entry]);
  return [...first.events, ...placed.events, ...acts];
}

/** What follows on the timeline from the engine's events. */
export function react(ctx: Ctx, event: AnyEvent): AnyEvent[] {
  const { state } = ctx;
  if (state.status !== 'running') return [];
  switch (event.type) {
    case 'clock/advanced': {
      // Rule 5: a continuous action completes when the counter reaches its end tick.
      const tick = event.to.at[0] ?? 0;
      return state.roster.flatMap((id): AnyEvent[] => {
        const busy = state.combatants[id]?.cs.busy;
        return busy && busy.to <= tick
          ? [{ type: 'tick/completed', combatant: id, action: busy.action, name: busy.name }]
          : [];
      });
    }
    case 'combatant/added':
      return join(ctx, event.combatant.id);
    case 'combatant/revived':
      return join(ctx, event.combatant);
    case 'combatant/defeated': {
      // Rule 8: the defeated leave the timeline; if it was their turn, the next marker acts.
      const id = event.combatant;
      const entries = state.agenda.filter((e) => e.combatant === id);
      const out: AnyEvent[] = [
        ...entries.map((e) => unschedule(e.id, 'defeated')),
        { type: 'tick/left', combatant: id },
      ];
      if (state.current === id) {
        out.push(
          { type: 'turn/ended', combatant: id },
          ...advance(
            state,
            [],
            entries.map((e) => e.id),
          ),
        );
      }
      return out;
    }
    case 'combatant/removed':
      // The engine took the marker off with the combatant; if it was their turn, the next marker acts.
      return state.current ? [] : advance(state);
    default:
      return [];
  }
}
