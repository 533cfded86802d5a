import type { Timeline, Viewer } from '@roundkeeper/engine';
import type { Names } from './names.js';

/**
 * The timeline as a viewer may read it: for anyone but the GM an NPC's lane is labelled by its name alone
 * (the numbers a ruleset adds there, a Stamina or a Defense, are the GM's), unless the GM shows the table
 * the numbers; a player's own characters keep theirs.
 */
export function timelineSeenBy(
  t: Timeline | null,
  viewer: Viewer,
  names: Names,
  numbers = false,
): Timeline | null {
  if (!t || viewer.role === 'gm' || numbers) return t;
  let changed = false;
  const lanes = t.lanes.map((lane) => {
    if (lane.side !== 'npc' || (viewer.role === 'player' && viewer.combatants.includes(lane.id))) return lane;
    const name = names.byId.get(lane.id);
    if (name === undefined || lane.label === name) return lane;
    changed = true;
    return { ...lane, label: name };
  });
  return changed ? { ...t, lanes } : t;
}

/**
 * The timeline's blocks shown: from the round the moment is in, at most `count` (never only a later one).
 * A moment in a round the timeline no longer holds (a round begun with no one to act: the last turn's
 * moment stays in the round before) marks nothing: no marker points into a round that is not drawn.
 */
export function roundsShown(t: Timeline | null, count: number): Timeline | null {
  if (!t) return null;
  const at = t.now ? t.rounds.indexOf(t.now.round) : -1;
  const from =
    at >= 0 ? Math.min(at, Math.max(0, t.rounds.length - count)) : Math.max(0, t.rounds.length - count);
  const rounds = t.rounds.slice(from, from + count);
  const stale = t.now !== null && at < 0;
  if (rounds.length === t.rounds.length && !stale) return t;
  return { ...t, rounds, ...(stale ? { now: null } : {}) };
}
