import type { AnyRuleset, EncounterView, Viewer } from '@roundkeeper/engine';
import { useMemo } from 'react';
import { rulesetOf } from '../model.js';
import { useField } from '../store/react.js';
import { useViewer } from './react.js';
import { asker, controlsOf, endTurnOf } from './screen.js';
import { forViewer } from './words.js';

/**
 * What the status line says, as this viewer may read it: a refusal that tells them to press a control
 * they lack ("…press Next") says who does, or their own word for it on their turn ("press End my turn").
 * The controls are those the viewer has at any time plus, on their turn, their End my turn: a refusal is
 * read beside the palette, whose actions carry their own words.
 */
export function statusFor(
  text: string,
  view: EncounterView | null | undefined,
  viewer: Viewer,
  rs?: AnyRuleset,
): string {
  if (!view || !rs) return text;
  const { ask } = asker(rs);
  const controls = controlsOf(viewer, rs, [], endTurnOf(view, viewer, rs, ask));
  return forViewer(text, controls);
}

/** The status line's text for this page's viewer (see `statusFor`); '' when there is none. */
export function useStatusText(): string {
  const notice = useField('notice');
  const view = useField('view');
  const viewer = useViewer();
  return useMemo(
    () => (notice ? statusFor(notice.text, view, viewer, view ? rulesetOf(view) : undefined) : ''),
    [notice, view, viewer],
  );
}
