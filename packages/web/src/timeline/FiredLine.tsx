import type { LogEntry } from '@roundkeeper/engine';
import { firedNow } from '../gm-tools/timed.js';
import './timed.css';

/**
 * The timed events that fired as this turn began ("Lair action: the ceiling cracks"), one line each, as
 * the clock reached them: on the table screen and the players' phones (name and moment: the note is the
 * GM's) and the GM's page.
 */
export function FiredLine({ entries }: { entries: readonly LogEntry[] }) {
  const fired = firedNow(entries);
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
}
