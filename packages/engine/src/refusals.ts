import type { AnyRuleset } from './ruleset.js';
import type { EncounterState, Rejection } from './types.js';
import { reject } from './types.js';

/** The stats a ruleset's sheet has, by name (none known when its schema is not an object's). */
export function statNames(ruleset: AnyRuleset): string[] | undefined {
  const schema = ruleset.statsSchema as { shape?: Record<string, unknown> };
  return schema.shape ? Object.keys(schema.shape) : undefined;
}

/**
 * Stats given for a combatant that its ruleset's sheet does not have (the sheet's schema would drop them
 * without a word): refused, naming them and the sheet's own. `whose` names the combatant.
 */
export function unknownStats(ruleset: AnyRuleset, stats: object, whose: string): Rejection | undefined {
  const names = statNames(ruleset);
  if (!names) return undefined;
  const unknown = Object.keys(stats).filter((k) => !names.includes(k));
  if (unknown.length === 0) return undefined;
  const quoted = unknown.map((k) => `"${k}"`).join(', ');
  return reject(
    'combatant/unknown-stat',
    `${ruleset.name} has no stat${unknown.length > 1 ? 's' : ''} ${quoted} (given for ${whose}); its stats are ${names.join(', ') || 'none'}.`,
    { stats: unknown },
  );
}

/**
 * What every ruleset's "start" checks first: the fight has not started yet, and someone is in it.
 * `what` names what starts ("fight", or "scene" where the rules say so). Undefined when it may start.
 */
export function cannotStart(state: EncounterState, what = 'fight'): Rejection | undefined {
  if (state.status !== 'setup') {
    return reject(
      'encounter/started',
      `The ${what} has already started (round ${state.round}); to start it over, undo back to before the start, or create a new encounter.`,
    );
  }
  if (!state.roster.some((id) => state.combatants[id]?.active === true)) {
    return reject(
      'encounter/empty',
      `Add at least one combatant who is in the ${what} (not defeated) before starting the ${what}.`,
    );
  }
  return undefined;
}

/** A command names a combatant the encounter does not have: say which ones it has. */
export function unknownCombatant(state: EncounterState, id: string): Rejection {
  const names = state.roster.join(', ') || 'none yet';
  return reject(
    'combatant/unknown',
    `There is no combatant "${id}" in this encounter (combatants: ${names}).`,
    {
      combatant: id,
    },
  );
}

/**
 * What a command that needs the fight under way checks first: undefined while it runs; otherwise whether
 * it has not started or is over, and what to do about it.
 */
export function notRunning(state: EncounterState, what = 'fight'): Rejection | undefined {
  if (state.status === 'running') return undefined;
  if (state.status === 'ended') {
    return reject('encounter/ended', `The ${what} has ended; undo the end to continue it.`);
  }
  return notStarted(what);
}

/** The fight has not started: start it first. */
export function notStarted(what = 'fight'): Rejection {
  return reject('encounter/not-started', `The ${what} has not started: press Roll initiative to start it.`);
}
