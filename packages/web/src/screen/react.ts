import {
  type EncounterView,
  type LegalAction,
  type LogEntry,
  legalActions,
  type Viewer,
} from '@roundkeeper/engine';
import { useMemo } from 'react';
import { rulesetOf } from '../model.js';
import { useField } from '../store/react.js';
import { describingState, type Names, namesFor, namesOf } from './names.js';
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

/**
 * The display names of the view's combatants and of those the log saw leave, from the log the part shows
 * (the log panel's own, deferred, entries: it is not drawn again before its turn comes).
 */
export function useNames(view: EncounterView, entries: readonly LogEntry[]): Names {
  return namesFor(view, entries);
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

/** The headline of the screen model for this page's viewer, and what the ruleset threw working it out. */
export function useHeadline(view: EncounterView): { headline: Headline; errors: string[] } {
  const viewer = useViewer();
  const names = useNames(view, useField('entries'));
  const controls = useControls(view);
  return useMemo(() => {
    const rs = rulesetOf(view);
    if (!rs)
      return {
        headline: {
          clock: `Round ${view.round}`,
          actor: '',
          actorId: null,
          status: view.status,
          named: false,
        },
        errors: [`This page does not know the ruleset "${view.ruleset}".`],
      };
    const { ask, errors } = asker(rs);
    const state = describingState(view, names);
    const say = (t: string) => forViewer(t, controls);
    return { headline: headlineOf(view, state, rs, names, ask, say, viewer.role === 'gm'), errors };
  }, [view, names, controls, viewer]);
}

/** A player's "End my turn" in the rules' words, while it is theirs and the rules let them end it. */
export function useEndTurn(view: EncounterView): {
  end: { label: string; help?: string } | null;
  errors: string[];
} {
  const viewer = useViewer();
  return useMemo(() => {
    const rs = rulesetOf(view);
    if (!rs) return { end: null, errors: [] };
    const { ask, errors } = asker(rs);
    return { end: endTurnOf(view, viewer, rs, ask), errors };
  }, [view, viewer]);
}

/**
 * The actor's legal actions as the screen model words them for this viewer (display names; a reason that
 * says "press Next" names a control the viewer has), and what the ruleset threw working them out.
 */
export function useLegal(view: EncounterView, actor: string): { legal: LegalAction[]; errors: string[] } {
  const viewer = useViewer();
  const { end } = useEndTurn(view);
  return useMemo(() => {
    const rs = rulesetOf(view);
    if (!rs || !view.combatants[actor]) return { legal: [], errors: [] };
    const { ask, errors } = asker(rs);
    const state = describingState(view, namesOf(view, []));
    const all = ask('the legal actions', () => legalActions(state, actor, { [rs.id]: rs }), []);
    const controls = controlsOf(viewer, rs, all, end);
    const legal = all.map((l) => (l.reason ? { ...l, reason: forViewer(l.reason, controls) } : l));
    return { legal, errors };
  }, [view, actor, viewer, end]);
}
