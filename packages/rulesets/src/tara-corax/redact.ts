import type { Viewer } from '@roundkeeper/engine';
import type { TaraFact } from './events.js';
import type { TaraState } from './types.js';

/** The round's order, a tie and the history name every combatant: a hidden one must not show through them. */
export function redact(state: TaraState, _viewer: Viewer): TaraState {
  const seen = (id: string) => Object.hasOwn(state.combatants, id);
  const h = state.rs.history;
  return {
    ...state,
    rs: {
      ...state.rs,
      order: state.rs.order.map((g) => g.filter(seen)).filter((g) => g.length > 0),
      together: state.rs.together ? { ...state.rs.together, ids: state.rs.together.ids.filter(seen) } : null,
      history: {
        spans: h.spans.filter((s) => seen(s.combatant)),
        markers: h.markers.filter((m) => seen(m.combatant)),
      },
    },
  };
}

/** A simultaneous action and a round's order, without the partners the viewer may not see. */
export function redactEvent(
  event: TaraFact,
  _viewer: Viewer,
  state: TaraState,
  hidden: ReadonlySet<string>,
): TaraFact | null {
  const seen = (id: string) => Object.hasOwn(state.combatants, id) && !hidden.has(id);
  if (event.type === 'tara/simultaneous') {
    const partners = event.with.filter(seen);
    return partners.length ? { ...event, with: partners } : null;
  }
  if (event.type === 'tara/round-order') {
    const order = event.order.map((g) => g.filter(seen)).filter((g) => g.length > 0);
    return { ...event, order };
  }
  return event;
}
