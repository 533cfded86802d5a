import type { EncounterView } from '@roundkeeper/engine';
import { memo, useId, useState } from 'react';
import { payloadOf, type RawForm } from '../forms/form.js';
import { ParamFields } from '../forms/ParamForm.js';
import { asState, rulesetOf } from '../model.js';
import { useLatest, useRun } from '../store/react.js';
import { momentWords, timedFields } from './timed.js';
import '../timeline/timed.css';

/**
 * The GM's timed events (lair actions): those on the clock, each with its moment in the ruleset's words and
 * its note, to remove; and a form to add one, its fields from the command's schema, the moment it names
 * read back in the ruleset's words as the GM types. None when the ruleset's clock has no such moment.
 * Memoized: a turn that passes changes neither the list nor what the form reads, so it is not drawn again
 * (its fields' `name` and `type` were written again on every change).
 */
export const TimedEvents = memo(function TimedEvents({
  view,
  timed = [],
}: {
  /** The fight as the form reads it: its ruleset, options and names (the GM's page keeps it while those stay). */
  view: EncounterView;
  /** The timed events on the clock (the same list while none changed). */
  timed?: NonNullable<EncounterView['timed']>;
}) {
  const run = useRun();
  // The round a new event is counted from is the fight's as it is when the form is sent.
  const latest = useLatest();
  const rs = rulesetOf(view);
  const [raw, setRaw] = useState<RawForm>({});
  const [error, setError] = useState('');
  const momentId = useId();
  if (!rs?.timedAt) return null;
  const params = timedFields();
  const moment = momentWords(rs, asState(view), raw.at);
  return (
    <section className="panel timed-events" aria-label="Timed events">
      <h2>Timed events</h2>
      {timed.length ? (
        <ul className="timed-list" data-testid="timed-list">
          {timed.map((t) => (
            <li key={t.id}>
              <span>
                <strong>
                  <bdi>{t.name}</bdi>
                </strong>{' '}
                <span className="muted">({t.when})</span>
                {t.note ? (
                  <>
                    : <bdi>{t.note}</bdi>
                  </>
                ) : null}
              </span>
              <button
                type="button"
                aria-label={`Remove ${t.name}`}
                onClick={() => void run({ type: 'remove-timed-event', id: t.id }, `${t.name} removed`)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">
          A lair action or anything else that happens at a moment of every round: it is announced on the table
          screen when the clock reaches it, and is never a combatant.
        </p>
      )}
      <form
        aria-label="Add a timed event"
        onSubmit={async (e) => {
          e.preventDefault();
          const payload = payloadOf(params, raw, { round: latest().v.round });
          if (typeof payload === 'string') return setError(payload);
          if (moment && !moment.ok) return setError(moment.words);
          setError('');
          const name = typeof payload.name === 'string' ? payload.name : 'Timed event';
          const r = await run({ type: 'add-timed-event', ...payload }, `${name} added`);
          if (r.ok) setRaw({});
        }}
      >
        <ParamFields params={params} raw={raw} set={(k, v) => setRaw({ ...raw, [k]: v })} view={view} />
        <p
          className={moment && !moment.ok ? 'reason' : 'muted'}
          id={momentId}
          data-testid="timed-moment"
          aria-live="polite"
        >
          {moment ? (moment.ok ? `When: ${moment.words}` : moment.words) : 'When: type a number in At.'}
        </p>
        {error ? (
          <p className="reason" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit">Add timed event</button>
      </form>
    </section>
  );
});
