import { memo, useCallback } from 'react';
import { type FiredLine as Fired, firedNow } from '../gm-tools/timed.js';
import type { EncounterSnapshot, EncounterStore } from '../store/encounter-store.js';
import { type NoProps, useEncounter, useStore } from '../store/react.js';
import './timed.css';

/** The fired lines of a change's log, worked out once per log and the same list while they read the same. */
export function firedOf(
  store: Pick<EncounterStore, 'derive'>,
  s: Pick<EncounterSnapshot, 'entries'>,
): Fired[] {
  return store.derive('fired', s.entries, firedNow);
}

/**
 * The timed events that fired as this turn began ("Lair action: the ceiling cracks"), one line each, as
 * the clock reached them: on the table screen and the players' phones (name and moment: the note is the
 * GM's) and the GM's page. Read from the store, not given the log: a change that fires nothing new does
 * not draw it.
 */
export const FiredLine = memo(function FiredLine(_: NoProps) {
  const store = useStore();
  const fired = useEncounter(useCallback((s: EncounterSnapshot) => firedOf(store, s), [store]));
  if (!fired.length) return null;
  return (
    <ul className="timed-fired" data-testid="timed-fired" aria-live="polite">
      {fired.map((f) => (
        <li key={f.seq}>
          <strong>
            <bdi>{f.name}</bdi>
          </strong>
          {f.note ? (
            <>
              : <bdi>{f.note}</bdi>
            </>
          ) : null}{' '}
          <span className="muted">({f.when})</span>
        </li>
      ))}
    </ul>
  );
});
