import type { AnyRuleset, EncounterView, Viewer } from '@roundkeeper/engine';
import { useCallback } from 'react';
import { rulesetOf } from '../model.js';
import type { EncounterSnapshot } from '../store/encounter-store.js';
import { useEncounter, useStore } from '../store/react.js';
import { endTurnPart, useViewer, viewerKey } from './react.js';
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
  end?: { label: string } | null,
): string {
  if (!view || !rs) return text;
  const endTurn = end !== undefined ? end : endTurnOf(view, viewer, rs, asker(rs).ask);
  return forViewer(text, controlsOf(viewer, rs, [], endTurn));
}

/**
 * The status line's text for this page's viewer (see `statusFor`); '' when there is none. Read from the
 * store as a string, worked out once per change (`derive`), so the line is drawn again only when its
 * words change, not on every change while a notice stands.
 */
export function useStatusText(): string {
  const store = useStore();
  const viewer = useViewer();
  return useEncounter(
    useCallback(
      (s: EncounterSnapshot) =>
        store.derive(`status:${viewerKey(viewer)}`, s, ({ notice, view }) => {
          if (!notice) return '';
          if (!view) return notice.text;
          return statusFor(notice.text, view, viewer, rulesetOf(view), endTurnPart(store, view, viewer).end);
        }),
      [store, viewer],
    ),
  );
}
