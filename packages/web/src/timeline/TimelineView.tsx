import { type EncounterView, perObject, type Timeline } from '@roundkeeper/engine';
import { memo, useDeferredValue, useId, useMemo, useRef, useState } from 'react';
import { rulesetOf } from '../model.js';
import { describingState, viewNames } from '../screen/names.js';
import { useViewer } from '../screen/react.js';
import { asker } from '../screen/screen.js';
import { roundsShown, timelineSeenBy } from '../screen/timeline.js';
import { ScreenErrors } from '../screens/chrome.js';
import { downloadText, exportPng } from './export.js';
import { TimelineLegend } from './Legend.js';
import { useNearScreen } from './near.js';
import { SvgPiece, sharedPiece } from './svg-react.js';
import { describeTimeline, piecesSvg, SVG_FONT, timelinePieces } from './timeline-svg.js';

/**
 * The ruleset's timeline of a view (its display names), or what the ruleset threw drawing it; null without
 * one. Worked out once per view: a change makes a new one.
 */
export const timelineRead = perObject((view: EncounterView): { t: Timeline | null; error?: string } => {
  const rs = rulesetOf(view);
  if (!rs) return { t: null };
  const { ask, errors } = asker(rs);
  const t = ask('the timeline', () => rs.timeline(describingState(view, viewNames(view))), null);
  return errors.length ? { t, error: errors[0]! } : { t };
});

export const timelineOf = (view: EncounterView): Timeline | null => timelineRead(view).t;

/** The picture of a timeline as the panel draws it, on the page and exported. */
export function drawTimeline(
  t: Timeline,
  highlight: string | null | undefined,
  maxRounds: number,
  title: string,
  legend = true,
) {
  // The blocks shown start at the moment's round: a carry-over never leaves only the next round shown.
  const shown = roundsShown(t, maxRounds) ?? t;
  return timelinePieces(shown, {
    maxRounds: shown.rounds.length,
    highlight: highlight ?? null,
    title,
    legend,
  });
}

/** The timeline picture, with export buttons. */
export const TimelineView = memo(function TimelineView({
  view,
  highlight,
  exportable = true,
  maxRounds = 2,
  fill = false,
  numbers = false,
}: {
  view: EncounterView;
  highlight?: string | null;
  exportable?: boolean;
  maxRounds?: number;
  /** Stretch the picture to the panel's width (the table screen), not only shrink it. */
  fill?: boolean;
  /** The GM shows the table NPCs' numbers (`&hp=all`): their lanes keep what the ruleset writes there. */
  numbers?: boolean;
}) {
  // What this viewer may read of it: an NPC's lane by its name alone for anyone but the GM.
  const viewer = useViewer();
  const seen = (v: EncounterView) => timelineSeenBy(timelineOf(v), viewer, viewNames(v), numbers);
  const box = useRef<HTMLElement | null>(null);
  const near = useNearScreen(box);
  // Scrolled away, the picture keeps what it drew as it left and is drawn again as it comes near: what it
  // keeps is set only when it leaves or comes back (the render the observer's change causes).
  const [kept, keep] = useState<{ view: EncounterView; highlight?: string | null } | null>(null);
  if (!near && kept === null) keep({ view, highlight });
  if (near && kept !== null) keep(null);
  const shown = near || kept === null ? { view, highlight } : kept;
  const title = `${view.name} — timeline`;
  const t = timelineOf(shown.view);
  const pic = useMemo(() => {
    const s = timelineSeenBy(t, viewer, viewNames(shown.view), numbers);
    if (!s) return null;
    const drawn = drawTimeline(s, shown.highlight, maxRounds, title, false);
    return { ...drawn, pieces: drawn.pieces.map(sharedPiece) };
  }, [t, shown.view, shown.highlight, maxRounds, title, viewer, numbers]);
  // What it is read as follows every change, drawn or not, one render later (as the log does); what it
  // exports is the fight as it is now.
  const later = useDeferredValue(view);
  const desc = useMemo(() => {
    const lt = timelineSeenBy(timelineOf(later), viewer, viewNames(later), numbers);
    return lt ? describeTimeline(lt) : '';
  }, [later, viewer, numbers]);
  const now = () => {
    const ct = seen(view);
    return ct ? piecesSvg(drawTimeline(ct, highlight, maxRounds, title)) : '';
  };
  const uid = useId();
  const error = timelineRead(shown.view).error;
  if (error) return <ScreenErrors errors={[error]} />;
  if (!t || !pic) return null;
  const base = view.name.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase() || 'timeline';
  return (
    <section
      ref={box}
      className="panel timeline-panel"
      aria-label="Timeline"
      // The picture kept from before while scrolled away (drawn again as it comes near).
      data-stale={shown.view === view ? undefined : ''}
    >
      <div className="panel-head">
        <h2>Timeline · {t.axis.unit}s</h2>
        {exportable ? (
          <div className="row">
            <button
              type="button"
              onClick={() => downloadText(`${base}-timeline.svg`, now(), 'image/svg+xml')}
            >
              Export SVG
            </button>
            <button type="button" onClick={() => void exportPng(now(), `${base}-timeline.png`)}>
              Export PNG
            </button>
          </div>
        ) : null}
      </div>
      {/* A scrolling picture: reachable by keyboard (Tab, then the arrow keys) and named for it. */}
      <section
        className={fill ? 'timeline-scroll fill' : 'timeline-scroll'}
        data-testid="timeline"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus to be scrolled without a mouse
        tabIndex={0}
        aria-label="Drawing (scrolls)"
      >
        <svg
          xmlns="http://www.w3.org/2000/svg"
          viewBox={`0 0 ${pic.width} ${pic.height}`}
          width={pic.width}
          height={pic.height}
          role="img"
          aria-labelledby={`${uid}-title ${uid}-desc`}
          fontFamily={SVG_FONT}
        >
          <title id={`${uid}-title`}>{pic.title}</title>
          <desc id={`${uid}-desc`}>{desc}</desc>
          {pic.pieces.map((p) => (
            <SvgPiece key={p.key} piece={p} />
          ))}
        </svg>
      </section>
      <TimelineLegend />
    </section>
  );
});
