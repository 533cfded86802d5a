import type { EncounterView, LogEntry } from '@roundkeeper/engine';
import { memo, useEffect, useMemo, useState } from 'react';
import { LIMITS, limitWords, setTurnLimit, useTurnLimit } from './turn-limit.js';
import {
  type ClockKnowledge,
  elapsedMs,
  formatElapsed,
  learn,
  NOTHING_KNOWN,
  startedLocally,
  turnStart,
} from './turn-time.js';
import './turn.css';

const lastSeq = (entries: readonly LogEntry[]) => entries.at(-1)?.seq ?? 0;

/** What the changes that arrived live tell of the clocks (`learn`); what the page had when it mounted is history. */
function useClockKnowledge(entries: readonly LogEntry[]): ClockKnowledge {
  const [known, setKnown] = useState(() => ({ seq: lastSeq(entries), clocks: NOTHING_KNOWN }));
  useEffect(() => {
    const at = Date.now();
    setKnown((prev) => {
      const last = lastSeq(entries);
      if (last <= prev.seq) return prev;
      return {
        seq: last,
        clocks: learn(
          prev.clocks,
          entries.filter((e) => e.seq > prev.seq),
          at,
        ),
      };
    });
  }, [entries]);
  return known.clocks;
}

/** The browser's clock, read twice a second while `active`. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const h = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(h);
  }, [active]);
  return now;
}

/**
 * How long the turn under way has lasted, counted from its `turn/started` (as it arrived, or by the
 * server's stamp with the clocks' offset taken out: `turn-time.ts`), with this browser's limit if it has
 * one: past it, the timer turns warm and pulses softly (no sound). Nothing when no turn is under way, and
 * for anyone but the GM during a hidden combatant's turn (their view has no current combatant then) or,
 * with `mine`, another's turn.
 */
export function TurnTimer({
  view,
  entries,
  mine,
  gm = false,
}: {
  view: EncounterView;
  entries: readonly LogEntry[];
  /** A player's characters: the timer shows on their turns only. */
  mine?: readonly string[];
  gm?: boolean;
}) {
  const clocks = useClockKnowledge(entries);
  const current = view.status === 'running' ? view.current : null;
  const c = current ? view.combatants[current] : undefined;
  const shown = c !== undefined && (gm || !c.hidden) && (!mine || mine.includes(current!));
  const begun = useMemo(() => (shown ? turnStart(entries, current) : null), [shown, entries, current]);
  const start = begun ? startedLocally(begun, clocks) : null;
  const now = useNow(start !== null);
  const limit = useTurnLimit();
  if (start === null || !c) return null;
  const ms = elapsedMs(start, now);
  const over = limit > 0 && ms >= limit * 1000 && !mine;
  return (
    <div className={over ? 'turn-timer over' : 'turn-timer'} data-testid="turn-timer">
      <span className="muted">This turn</span>{' '}
      <span
        role="timer"
        aria-label={`Time of ${c.name}’s turn`}
        className="turn-time"
        data-testid="turn-time"
      >
        {formatElapsed(ms)}
      </span>
      {limit && !mine ? (
        <span className="muted turn-limit">
          {over ? ' over the limit of ' : ' of '}
          {limitWords(limit)}
        </span>
      ) : null}
    </div>
  );
}

/** The GM's choice of a turn limit, kept by this browser (`turn-limit.ts`). */
export const TurnLimitPicker = memo(function TurnLimitPicker() {
  const limit = useTurnLimit();
  return (
    <label className="turn-limit-picker">
      Turn limit{' '}
      <select value={limit} onChange={(e) => setTurnLimit(Number(e.currentTarget.value))}>
        {(LIMITS.includes(limit) ? LIMITS : [...LIMITS, limit]).map((s) => (
          <option key={s} value={s}>
            {limitWords(s)}
          </option>
        ))}
      </select>
    </label>
  );
});
