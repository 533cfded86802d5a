import {
  type EncounterView,
  type LegalAction,
  type LogEntry,
  legalActions,
  type Viewer,
} from '@roundkeeper/engine';
import { useCallback, useMemo } from 'react';
import { rulesetOf } from '../model.js';
import type { EncounterSnapshot, EncounterStore } from '../store/encounter-store.js';
import { fresh } from '../store/merge.js';
import { useEncounter, useField, useStore } from '../store/react.js';
import { describingState, namesFor, viewNames } from './names.js';
import { asker, controlsOf, endTurnOf, type Headline, headlineOf } from './screen.js';
import { type Controls, forViewer } from './words.js';

/** Who holds this page: the GM, the table, or a player and their characters. */
export function useViewer(): Viewer {
  const role = useField('role');
  const mine = useField('mine');
  return useMemo<Viewer>(
    () => (role === 'player' ? { role, combatants: mine } : role === 'table' ? { role } : { role: 'gm' }),
    [role, mine],
  );
}

/** The controls of this page's viewer, for sentences read at any time (the log, the phase). */
export function useControls(view: EncounterView): Controls {
  const viewer = useViewer();
  const rs = rulesetOf(view);
  return useMemo(
    () => (rs ? controlsOf(viewer, rs, [], null) : { labels: new Set(), endTurn: null }),
    [viewer, rs],
  );
}

/** The headline of a view for a viewer, and what the ruleset threw working it out. */
export function headlineFor(
  view: EncounterView,
  entries: readonly LogEntry[],
  viewer: Viewer,
): { headline: Headline; errors: string[] } {
  const rs = rulesetOf(view);
  if (!rs)
    return {
      headline: { clock: `Round ${view.round}`, actor: '', actorId: null, status: view.status, named: false },
      errors: [`This page does not know the ruleset "${view.ruleset}".`],
    };
  const names = namesFor(view, entries);
  const controls = controlsOf(viewer, rs, [], null);
  const { ask, errors } = asker(rs);
  const state = describingState(view, names);
  const say = (t: string) => forViewer(t, controls);
  return { headline: headlineOf(view, state, rs, names, ask, say, viewer.role === 'gm'), errors };
}

/**
 * The headline of the screen model for this page's viewer, read from the store: worked out once per
 * change (`derive`) and kept as the same object while its words are the same, so the banner is drawn
 * again only when the clock or whose turn it is changed, not on every change of the fight.
 */
export function useHeadline(): { headline: Headline; errors: string[] } | null {
  const store = useStore();
  const viewer = useViewer();
  return useEncounter(
    useCallback(
      (s: EncounterSnapshot) =>
        s.view
          ? store.derive(`headline:${viewerKey(viewer)}`, s, ({ view, entries }) =>
              view ? headlineFor(view, entries, viewer) : null,
            )
          : null,
      [store, viewer],
    ),
  );
}

/** A player's "End my turn" in the rules' words, and what the ruleset threw working it out. */
export interface EndTurn {
  end: { label: string; help?: string } | null;
  errors: string[];
}

/** Who the viewer is, as a key of what is worked out for them. */
export const viewerKey = (viewer: Viewer): string =>
  viewer.role + (viewer.role === 'player' ? viewer.combatants : '');

/**
 * The viewer's "End my turn" for a view, worked out once per view (on a player's own turn it is a dry run
 * of `next` through the engine) however many parts ask: the button, the palette's words, the status line.
 */
export function endTurnPart(
  store: Pick<EncounterStore, 'derive'>,
  view: EncounterView,
  viewer: Viewer,
): EndTurn {
  return store.derive(`end:${viewerKey(viewer)}`, view, (v) => {
    const rs = rulesetOf(v);
    if (!rs) return { end: null, errors: [] };
    const { ask, errors } = asker(rs);
    return { end: endTurnOf(v, viewer, rs, ask), errors };
  });
}

/** A player's "End my turn" in the rules' words, while it is theirs and the rules let them end it. */
export function useEndTurn(view: EncounterView): EndTurn {
  return endTurnPart(useStore(), view, useViewer());
}

/**
 * The actor's legal actions as the screen model words them for this viewer (display names; a reason that
 * says "press Next" names a control the viewer has), and what the ruleset threw working them out. Worked
 * out once per view (the store's `derive`), with the viewer's "End my turn" worked out once for all parts.
 */
export function useLegal(view: EncounterView, actor: string): { legal: LegalAction[]; errors: string[] } {
  const viewer = useViewer();
  const store = useStore();
  const { end } = endTurnPart(store, view, viewer);
  return store.derive(
    `legal:${viewerKey(viewer)}:${actor}`,
    view,
    (v) => legalFor(v, actor, viewer, end),
    fresh,
  );
}

/** The legal actions of `actor` in `view`, worded for `viewer` (see `useLegal`). */
export function legalFor(
  view: EncounterView,
  actor: string,
  viewer: Viewer,
  end: { label: string } | null,
): { legal: LegalAction[]; errors: string[] } {
  const rs = rulesetOf(view);
  if (!rs || !view.combatants[actor]) return { legal: [], errors: [] };
  const { ask, errors } = asker(rs);
  const state = describingState(view, viewNames(view));
  const all = ask('the legal actions', () => legalActions(state, actor, { [rs.id]: rs }), []);
  const controls = controlsOf(viewer, rs, all, end);
  const legal = all.map((l) => (l.reason ? { ...l, reason: forViewer(l.reason, controls) } : l));
  return { legal, errors };
}
