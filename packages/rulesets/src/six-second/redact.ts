import type { Viewer } from '@roundkeeper/engine';
import type { SixSecondFact } from './events.js';
import type { State } from './types.js';

/**
 * The order and the interruption stack name every combatant; a hidden one must not show through them.
 * In the order a hidden combatant's place is kept, empty (`''`): instants count turns by their place in
 * the order (slot 2 is the second turn), so leaving it out would shift every later place and the clock
 * would name the one after ("of Bandit 2's turn" during Bren's).
 */
export function redact(state: State, _viewer: Viewer): State {
  const seen = (id: string) => Object.hasOwn(state.combatants, id);
  return {
    ...state,
    rs: {
      order: state.rs.order.map((id) => (seen(id) ? id : '')),
      interrupted: state.rs.interrupted.filter(seen),
    },
  };
}

/** An order or a contest without the combatants the viewer may not see; a roll-off or interruption naming one is dropped. */
export function redactEvent(
  event: SixSecondFact,
  _viewer: Viewer,
  _state: State,
  hidden: ReadonlySet<string>,
): SixSecondFact | null {
  if (hidden.size === 0) return event;
  switch (event.type) {
    case 'six-second/order':
      return { type: event.type, order: event.order.filter((id) => !hidden.has(id)) };
    case 'six-second/roll-off':
    case 'six-second/roll-off-abandoned':
    case 'six-second/contest-roll-off':
      return event.combatants.some((id) => hidden.has(id)) ? null : event;
    case 'six-second/contest': {
      const { order, totals } = event;
      const seen = order.flatMap((id, i) => {
        const total = totals[i];
        return hidden.has(id) || total === undefined ? [] : [{ id, total }];
      });
      return { ...event, order: seen.map((s) => s.id), totals: seen.map((s) => s.total) };
    }
    case 'six-second/turn-interrupted':
      return hidden.has(event.by) ? null : event;
    default:
      return event;
  }
}
