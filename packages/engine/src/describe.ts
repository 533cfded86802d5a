import type { CoreEvent } from './events.js';
import { isCore } from './evolve.js';
import { describeHpDisplay } from './hp-display.js';
import type { AnyRuleset } from './ruleset.js';
import { timedWhen } from './timed.js';
import type { Combatant, Duration, EncounterState, EngineEvent, Instant, LogEntry } from './types.js';

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

/** A dice reference in words: `@init` is the initiative modifier, `@agility` "agility". */
function refWords(name: string): string {
  if (name === 'init') return 'initiative';
  return name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/**
 * Dice notation in words a table reads: "1d20+@init" → "d20 + initiative", "1d10!1" → "d10 (a 10 rolls
 * again, once)", "2d10!" → "2d10 (a 10 rolls again)", "4d6kh3" → "4d6, keeping the highest 3".
 */
export function notationInWords(notation: string): string {
  return notation
    .replace(
      /(\d+)d(\d+)(?:!(\d*))?(?:k([hl])(\d+))?/g,
      (_m, count: string, sides: string, cap?: string, which?: string, keep?: string) => {
        let out = `${count === '1' ? '' : count}d${sides}`;
        if (cap !== undefined) {
          const times = cap === '' ? '' : cap === '1' ? ', once' : `, up to ${cap} times`;
          out += ` (a ${sides} rolls again${times})`;
        }
        if (which) out += `, keeping the ${which === 'h' ? 'highest' : 'lowest'} ${keep}`;
        return out;
      },
    )
    .replace(/@(\w+)/g, (_m, name: string) => refWords(name))
    .replace(/\s*([+*]|-(?!\())\s*/g, ' $1 ')
    .trim();
}

/**
 * A roll in words with every face: "Initiative: d20 + initiative — [14] + initiative 3 = 17" — what for,
 * what was rolled, then the faces ("10→4" a die that rolled again, "dropped 1" a die not kept).
 */
export function rollInWords(roll: { notation: string; text: string }, purpose?: string): string {
  const head = `${roll.notation}: `;
  const faces = (roll.text.startsWith(head) ? roll.text.slice(head.length) : roll.text).replace(
    /@(\w+)\((-?\d+)\)/g,
    (_m, name: string, value: string) => `${refWords(name)} ${value}`,
  );
  return `${purpose ? `${purpose}: ` : ''}${notationInWords(roll.notation)} — ${faces}`;
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
  const timed = at.round === state.round && at.now === state.now ? state : { ...state, ...at };
  const entry = entries[last];
  return entry ? withDeparted(timed, entry.event, entries) : timed;
}

/** What a log knows of every combatant it ever added, by id: the last record and name it gave. */
const knownIn = new WeakMap<readonly LogEntry[], { length: number; known: Map<string, Combatant> }>();

/**
 * Every combatant `entries` ever added, as they last left them (renamed, removed, or added by a command
 * later undone). Kept per log and read on from where it stopped, so a log is read once however many of
 * its lines are worded.
 */
export function combatantsOfLog(entries: readonly LogEntry[]): ReadonlyMap<string, Combatant> {
  let seen = knownIn.get(entries);
  if (!seen || seen.length > entries.length) {
    seen = { length: 0, known: new Map() };
    knownIn.set(entries, seen);
  }
  for (let i = seen.length; i < entries.length; i++) {
    const event = entries[i]!.event;
    if (!isCore(event)) continue;
    if (event.type === 'combatant/added') seen.known.set(event.combatant.id, event.combatant);
    else if (event.type === 'encounter/created')
      for (const c of Object.values(event.state.combatants)) seen.known.set(c.id, c);
    else if (
      (event.type === 'combatant/updated' && event.patch.name !== undefined) ||
      event.type === 'combatant/removed'
    ) {
      const c = seen.known.get(event.combatant);
      const name = event.type === 'combatant/removed' ? event.name : event.patch.name;
      if (c && name !== undefined) seen.known.set(c.id, { ...c, name });
    }
  }
  seen.length = entries.length;
  return seen.known;
}

/** The string values anywhere in a JSON value. */
function* stringsIn(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const v of value) yield* stringsIn(v);
  else if (typeof value === 'object' && value !== null)
    for (const v of Object.values(value)) yield* stringsIn(v);
}

/**
 * `state` with the combatants `event` names that are no longer in it (removed since, or their addition
 * undone) put back as the log last knew them, so the line about them names them, never an id.
 */
function withDeparted<S extends EncounterState>(
  state: S,
  event: EngineEvent,
  entries: readonly LogEntry[],
): S {
  // The creation names nobody in its line; its whole state is not worth reading through.
  if (event.type === 'encounter/created') return state;
  let back: Record<string, Combatant> | undefined;
  for (const s of stringsIn(event)) {
    if (Object.hasOwn(state.combatants, s) || back?.[s]) continue;
    const c = combatantsOfLog(entries).get(s);
    if (!c) continue;
    back ??= {};
    back[s] = c;
  }
  return back ? { ...state, combatants: { ...back, ...state.combatants } } : state;
}

/**
 * A log line for an event, in the GM's words. `state` is the state the event led to; for an entry of a
 * log, `stateAt` gives its round and instant and puts back the combatants the entry names that have left
 * since (removed, or their addition undone), so every line names them, never by id.
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
      return `Timed event: ${event.timed.name}, ${timedWhen(event.timed)}.`;
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
      return `${nameOf(state, event.combatant)} rolls ${rollInWords(event.roll, event.purpose)}`;
    case 'undo':
      return `Undo (command ${event.group}).`;
    case 'redo':
      return `Redo (command ${event.group}).`;
  }
}
