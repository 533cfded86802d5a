import type { Command } from '@roundkeeper/engine';
import { memo } from 'react';
import { useHeadline } from '../screen/react.js';
import { useStatusText } from '../screen/status.js';
import type { SendResult } from '../store/encounter-store.js';
import { useField } from '../store/react.js';

export type Send = (command: Command) => Promise<SendResult>;

/** What a ruleset threw while the page worked something out: shown as an error, never hidden. */
export function ScreenErrors({ errors }: { errors: readonly string[] }) {
  if (!errors.length) return null;
  return (
    <div className="screen-errors" role="alert">
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}

/**
 * The big "whose turn, which Mark" banner, from the screen model (`screen/`). When the clock already
 * names whose turn it is, the actor line is for screen readers only. It reads the store itself (no view
 * passed down): a change that leaves its words as they were does not draw it.
 */
export const Headline = memo(function Headline({ compact = false }: { compact?: boolean }) {
  const read = useHeadline();
  if (!read) return null;
  const { headline: h, errors } = read;
  return (
    <section className={compact ? 'headline compact' : 'headline'} aria-live="polite" aria-label="Whose turn">
      <div className="headline-clock" data-testid="clock">
        {h.clock}
      </div>
      <div className={h.named ? 'headline-actor sr-only' : 'headline-actor'} data-testid="current-actor">
        {h.actor}
      </div>
      <ScreenErrors errors={errors} />
    </section>
  );
});

/**
 * What the last command came to, from the page's store: a refusal with the rule's reason, or what was done,
 * worded for this viewer (a refusal never tells them to press a control they lack: screen/status.ts). It
 * reads the store itself: the screens drawn again with a change leave it unless its words changed.
 */
export const Status = memo(function Status() {
  const message = useField('notice');
  const said = useStatusText();
  return (
    <div
      className={`status ${message ? (message.ok ? 'ok' : 'refused') : ''}`}
      role="status"
      aria-live="assertive"
      data-testid="status"
    >
      {said}
    </div>
  );
});

export const ConnectionBadge = memo(function ConnectionBadge({ connected }: { connected: boolean }) {
  return (
    <span className={`conn ${connected ? 'on' : 'off'}`} data-testid="connection">
      {connected ? 'live' : 'reconnecting…'}
    </span>
  );
});
