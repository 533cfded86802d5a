import type { CoreEvent } from './events.js';
import { isCore } from './evolve.js';
import { describeHpDisplay } from './hp-display.js';
import type { AnyRuleset } from './ruleset.js';
import type { Duration, EncounterState, EngineEvent, Instant, LogEntry } from './types.js';

function nameOf(state: EncounterState, id: unknown): string {
  if (typeof id !== 'string') return '?';
  return state.combatants[id]?.name ?? id;
}

/** "next turn", "2nd turn from now", "3rd turn from now", "11th turn from now". */
function turnsAhead(turns: number | undefined): string {
  if (!turns || turns <= 1) return 'next turn';
  const teen = turns % 100 >= 11 && turns % 100 <= 13;
  const suffix = teen ? 'th' : (['th', 'st', 'nd', 'rd'][turns % 10] ?? 'th');
  return `${turns}${suffix} turn from now`;
}

export function describeDuration(state: EncounterState, d: Duration): string {
  switch (d.kind) {
    case 'until-turn-start':
      return `until the start of ${nameOf(state, d.combatant)}'s ${turnsAhead(d.turns)}`;
    case 'until-turn-end':
      return d.turns === 0
        ? `until the end of ${nameOf(state, d.combatant)}'s turn`
        : `until the end of ${nameOf(state, d.combatant)}'s ${turnsAhead(d.turns)}`;
    case 'until-round-end':
      return d.round ? `until the end of round ${d.round}` : 'until the end of the round';
    case 'for':
      return `for ${d.amount} clock units`;
    case 'until':
      return `until round ${d.at.round} (${d.at.at.join(',')})`;
    case 'indefinite':
      return 'until removed';
  }
}

/**
 * An action's cost in words: "15 marks", "1 action", "2 stamina, 1 turn requirement". The keys are the
 * rulesets' plural nouns in camelCase; zeros are left out unless the cost has nothing else ("free").
 */
export function describeCost(cost: Readonly<Record<string, number>>): string {
  const entries = Object.entries(cost).filter(([k]) => k !== 'free');
  const parts = entries
    .filter(([, n]) => n !== 0 || entries.length === 1)
    .map(([k, n]) => {
      const [noun = '', ...rest] = k
        .replace(/([A-Z])/g, ' $1')
        .toLowerCase()
        .split(' ');
      // A plural noun loses its "s" for one ("1 mark", "1 mark per unit"); "bonus" is not a plural.
      const one = Math.abs(n) === 1 && /[^su]s$/.test(noun);
      return [n, one ? noun.slice(0, -1) : noun, ...rest].join(' ');
    });
  return parts.join(', ') || 'free';
}

/**
 * The state a log entry is worded against: the round and the instant the fight had reached at that entry
 * (its last `round/started` and `clock/advanced`, as they fold, and the ruleset's own renumbering of the
 * instant after that: `ClockSpec.renumbers`), the rest as `state` is now. A line that names when it
 * happened ("Mark 12: Ana acts.") then reads the same on a page loaded later as it did live. Where the
 * entries up to it do not say (a log that starts later), the state's own round and instant.
 */
export function stateAt<S extends EncounterState>(
  state: S,
  entries: readonly LogEntry[],
  index: number,
  ruleset: AnyRuleset,
): S {
  let round: number | undefined;
  let now: Instant | null | undefined;
  const last = Math.min(index, entries.length - 1);
  let from = last + 1;
  for (let i = last; i >= 0 && (round === undefined || now === undefined); i--) {
    const event = entries[i]!.event;
    if (!isCore(event)) continue;
    if (now === undefined && event.type === 'clock/advanced') {
      now = event.to;
      from = i + 1;
    } else if (round === undefined && event.type === 'round/started') round = event.round;
    else if (event.type === 'encounter/created') {
      // The log's first entry: the round and instant it all began with.
      round ??= event.state.round;
      if (now === undefined) {
        now = event.state.now ?? null;
        from = i + 1;
      }
    }
  }
  const renumbers = ruleset.clock.renumbers;
  if (renumbers && now) {
    for (let i = from; i <= last; i++) {
      const event = entries[i]!.event;
      if (!isCore(event)) now = renumbers(event, now) ?? now;
    }
  }
  const at = { round: round ?? state.round, now: now === undefined ? state.now : now };
  return at.round === state.round && at.now === state.now ? state : { ...state, ...at };
}

/**
 * A log line for an event, in the GM's words. `state` is the state the event led to (names of
 * combatants still resolve after they are removed only while the event's own payload names them); for an
 * entry of a log read later, `stateAt` gives its round and instant.
 */
export function describeEvent(event: EngineEvent, state: EncounterState, ruleset: AnyRuleset): string | null {
  const own = ruleset.describeEvent?.(event, state);
  if (own !== undefined && own !== null) return own;
  return isCore(event) ? describeCore(event, state, ruleset) : null;
}

function describeCore(event: CoreEvent, state: EncounterState, ruleset: AnyRuleset): string | null {
  switch (event.type) {
    case 'encounter/created':
      return `Encounter created (${ruleset.name}).`;
    case 'encounter/started':
      return 'The fight begins.';
    case 'encounter/ended':
      return 'The encounter ends.';
    case 'combatant/added':
      return `${event.combatant.name} joins the encounter${event.combatant.hidden ? ' (hidden)' : ''}.`;
    case 'combatant/updated':
      return `${nameOf(state, event.combatant)} is updated.`;
    case 'combatant/removed':
      return `${event.name} leaves the encounter.`;
    case 'combatant/defeated':
      return `${nameOf(state, event.combatant)} is out of the fight.`;
    case 'combatant/revived':
      return `${nameOf(state, event.combatant)} is back in the fight.`;
    case 'hp/changed':
      return `${nameOf(state, event.combatant)}: HP ${event.from.current} → ${event.hp.current}/${event.hp.max}.`;
    case 'effect/added': {
      const e = event.effect;
      return `${nameOf(state, e.target)} gains ${e.name} ${describeDuration(state, e.duration)}.`;
    }
    case 'effect/expired':
      return `${event.name} on ${nameOf(state, event.target)} ends.`;
    case 'effect/removed':
      return `${event.name} is removed from ${nameOf(state, event.target)}.`;
    case 'action/defined':
      return `Custom action "${event.action.name}" defined.`;
    case 'action/removed':
      return `Custom action "${event.action}" removed.`;
    case 'options/set':
      return 'Encounter options changed.';
    case 'timed/added':
      return `Timed event: ${event.timed.name}, ${event.timed.when}${event.timed.every === undefined ? ', every round' : ''}.`;
    case 'timed/removed':
      return `Timed event removed: ${event.name}.`;
    case 'timed/fired':
      return `${event.name} (${event.when})${event.note ? `: ${event.note}` : '.'}`;
    case 'hp/described':
      return `${nameOf(state, event.combatant)} is ${event.word}.`;
    case 'hp-display/set':
      return `HP shown: ${describeHpDisplay(event.display)} (the GM sees numbers).`;
    case 'note/added':
      return `GM note: ${event.text}`;
    case 'round/started':
      return `— Round ${event.round} —`;
    case 'round/ended':
      return `Round ${event.round} ends.`;
    case 'turn/started':
      return `${nameOf(state, event.combatant)}'s turn.`;
    case 'turn/ended':
    case 'clock/advanced':
    case 'agenda/scheduled':
    case 'agenda/scheduled-many':
    case 'agenda/removed':
    case 'dice/state':
      return null;
    case 'dice/rolled':
      return `${nameOf(state, event.combatant)} rolls ${event.purpose ?? ''}: ${event.roll.text}`;
    case 'undo':
      return `Undo (command ${event.group}).`;
    case 'redo':
      return `Redo (command ${event.group}).`;
  }
}
