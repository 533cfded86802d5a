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

/** The timeline's blocks shown: from the round the moment is in, at most `count` (never only a later one). */
export function roundsShown(t: Timeline | null, count: number): Timeline | null {
  if (!t) return null;
  const at = t.now ? t.rounds.indexOf(t.now.round) : -1;
  const from =
    at >= 0 ? Math.min(at, Math.max(0, t.rounds.length - count)) : Math.max(0, t.rounds.length - count);
  const rounds = t.rounds.slice(from, from + count);
  return rounds.length === t.rounds.length ? t : { ...t, rounds };
}
