import {
  type AnyRuleset,
  describeEvent,
  type EncounterState,
  type EncounterView,
  type LogEntry,
  perObject,
  stateAt,
} from '@roundkeeper/engine';
import { memo, useDeferredValue, useMemo } from 'react';
import { rulesetOf, splitNames } from '../model.js';
import { describingState, namesFor } from '../screen/names.js';
import { useControls } from '../screen/react.js';
import { asker } from '../screen/screen.js';
import { forViewer } from '../screen/words.js';

/**
 * An entry in the ruleset's words, at its own round and instant (a turn's Mark), the rest as the fight is
 * now; `state` is the screen model's (display names, departed combatants still named). What the ruleset
 * throws describing it is the line, as an error.
 */
export function entryLine(
  i: number,
  entries: readonly LogEntry[],
  state: EncounterState,
  rs: AnyRuleset,
): string | null {
  const { ask, errors } = asker(rs);
  const line = ask(
    'a log line',
    () => describeEvent(entries[i]!.event, stateAt(state, entries, i, rs), rs),
    null,
  );
  return errors.length ? `⚠ ${errors[0]}` : line;
}

/** The first line a command says: what an undo takes back or a redo brings back. */
export function groupLine(
  group: number,
  entries: readonly LogEntry[],
  state: EncounterState,
  rs: AnyRuleset,
): string | null {
  for (const [i, x] of entries.entries()) {
    if (x.group !== group || x.event.type === 'undo' || x.event.type === 'redo') continue;
    const line = entryLine(i, entries, state, rs);
    if (line) return line;
  }
  return null;
}

/**
 * A log line: the ruleset's words for the event; an undo or redo says what it took back or brought back
 * (the first line of that command), never a command number.
 */
export function lineOf(
  at: number,
  entries: LogEntry[],
  state: EncounterState,
  rs: AnyRuleset,
): string | null {
  const e = entries[at]!;
  if ((e.event.type === 'undo' || e.event.type === 'redo') && typeof e.event.group === 'number') {
    const what = groupLine(e.event.group, entries, state, rs);
    const verb = e.event.type === 'undo' ? 'Undone' : 'Redone';
    return what ? `${verb}: ${what}` : `${verb}: the GM's last change.`;
  }
  return entryLine(at, entries, state, rs);
}

/**
 * The lines described so far, by entry: one cache per ruleset, options and names (what a past line reads),
 * so a line is described again only when one of them changes.
 */
const caches = perObject((_rs: AnyRuleset) =>
  perObject((_options: EncounterView['options']) => new Map<string, WeakMap<LogEntry, string | null>>()),
);

function linesFor(
  rs: AnyRuleset | undefined,
  options: EncounterView['options'],
  names: string,
): WeakMap<LogEntry, string | null> {
  if (!rs) return new WeakMap();
  const byNames = caches(rs)(options);
  let lines = byNames.get(names);
  if (!lines) {
    if (byNames.size > 8) byNames.clear();
    lines = new WeakMap();
    byNames.set(names, lines);
  }
  return lines;
}

/** The log in the GM's words (or the player's, redacted by the server), newest last. */
export const LogView = memo(function LogView({
  view,
  entries,
  limit = 60,
  newestFirst = false,
}: {
  view: EncounterView;
  entries: LogEntry[];
  limit?: number;
  /** The GM's log reads from the newest line down, beside the palette. */
  newestFirst?: boolean;
}) {
  const rs = rulesetOf(view);
  // The screen model's names: every combatant's display name, those that left the fight too.
  // The display names from the log this part shows (its own, deferred, entries).
  const known = namesFor(view, entries);
  const controls = useControls(view);
  // A past event's line depends on the names it mentions and on its own round and instant, not on the rest
  // of the state: lines are kept per entry and described again only when a name, the roster or the
  // options change.
  const names = [...known.byId].map(([id, name]) => `${id}=${name}`).join('\n');
  // Names are isolated inside each line (a right-to-left override stays inside its name).
  const roster = [...known.byId.values()].join('\n');
  const text = linesFor(rs, view.options, names);
  const lines = useMemo(() => {
    if (!rs) return [];
    // Only the last `limit` lines are shown: describe from the newest back, not the whole history.
    const state = describingState(view, known);
    const out: { seq: number; text: string; kind: string }[] = [];
    for (let i = entries.length - 1; i >= 0 && out.length < limit; i--) {
      const e = entries[i]!;
      let line = text.get(e);
      if (line === undefined) {
        const said = lineOf(i, entries, state, rs);
        line = said === null ? null : forViewer(said, controls);
        text.set(e, line);
      }
      if (line) out.push({ seq: e.seq, text: line, kind: e.event.type });
    }
    return newestFirst ? out : out.reverse();
  }, [entries, view, rs, limit, text, newestFirst, known, controls]);
  return (
    <section className="panel log" aria-label="Log">
      <h2>Log</h2>
      {/* A scrolling list: reachable by keyboard (Tab, then the arrow keys) and named for it. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus to be scrolled without a mouse */}
      <ol className="log-lines" data-testid="log" tabIndex={0} aria-label="Log lines">
        {lines.map((l) => (
          <LogLine key={l.seq} text={l.text} kind={l.kind} names={roster} />
        ))}
      </ol>
    </section>
  );
});

/**
 * The log a change later: its own deferred copies of the view and the entries (`useDeferredValue`), so a
 * change commits the rest of the page first and only this part is drawn again in the deferred render —
 * the page around it, holding the deferred copies itself, was drawn a second time whole.
 */
export function LaterLog({
  view,
  entries,
  ...rest
}: {
  view: EncounterView;
  entries: LogEntry[];
  limit?: number;
  newestFirst?: boolean;
}) {
  return <LogView view={useDeferredValue(view)} entries={useDeferredValue(entries)} {...rest} />;
}

/** One log line; skipped when its text and the names in the roster are the same (a new line leaves the others). */
export const LogLine = memo(function LogLine({
  text,
  kind,
  names,
}: {
  text: string;
  kind: string;
  /** The roster's names, newline-joined (a string, so an unchanged roster compares equal). */
  names: string;
}) {
  return (
    <li className={kind.replace(/[^a-z]+/g, '-')}>
      <bdi>
        {splitNames(text, names.split('\n')).map((part, i) =>
          // The words between names are plain text: a new line makes only its names' elements.
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed line, in order.
          part.name ? <bdi key={i}>{part.text}</bdi> : part.text,
        )}
      </bdi>
    </li>
  );
});
