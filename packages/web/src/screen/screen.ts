import {
  type AnyRuleset,
  commandForms,
  decide,
  describeEvent,
  type EncounterState,
  type EncounterView,
  evolve,
  isRejection,
  type LegalAction,
  type LogEntry,
  legalActions,
  type Panel,
  roundOrder,
  seededDice,
  stateAt,
  type Timeline,
  type Viewer,
} from '@roundkeeper/engine';
import { describingState, type Names, namesOf } from './names.js';
import { roundsShown, timelineSeenBy } from './timeline.js';
import { type Controls, forViewer } from './words.js';

/**
 * One screen model: from the view a viewer holds, who the viewer is and the ruleset, everything a screen
 * shows — the headline, the order, each combatant's gauges, the timeline's rounds, the actor's legal
 * actions, panels and log lines. It is the one place the page asks the ruleset anything; an error a
 * ruleset throws is kept in `errors` (and shown as one), never hidden behind something else.
 */
export interface ScreenInput {
  view: EncounterView;
  viewer: Viewer;
  ruleset: AnyRuleset;
  entries: readonly LogEntry[];
  /** Whose palette the screen shows (the GM's selection, the player's character); none on the table. */
  actor?: string | null;
  /** Blocks of the timeline shown (the table one, the GM and players two). */
  rounds?: number;
  /** Log lines shown, newest last. */
  logLimit?: number;
  /** NPCs' HP as numbers on the table (the GM's `&hp=all`). */
  numbers?: boolean;
}

export interface Headline {
  clock: string;
  /** Whose turn, by display name; or what the moment asks of the table; or a neutral text. */
  actor: string;
  /** The combatant named as acting (null when nobody visible acts). */
  actorId: string | null;
  status: EncounterView['status'];
  /** The clock already names the actor: the actor line is for screen readers only. */
  named: boolean;
}

export interface Gauge {
  label: string;
  value: string;
  fill?: number;
}

export interface Row {
  id: string;
  name: string;
  side: 'pc' | 'npc';
  current: boolean;
  active: boolean;
  /** HP as the viewer may read it: numbers ("7/9 HP"), words ("bloodied") or nothing. */
  status: string | null;
  gauges: Gauge[];
}

export interface LogLine {
  seq: number;
  text: string;
  kind: string;
}

export interface Screen {
  headline: Headline;
  /** Who acts after this turn, by display name. */
  next: string[];
  order: Row[];
  /** The timeline with the rounds shown (the current moment's first), or null. */
  timeline: Timeline | null;
  actions: LegalAction[];
  panels: Panel[];
  log: LogLine[];
  /** The controls this viewer has, by the words on them. */
  controls: Controls;
  /** A player's "End my turn", in the rules' words, when the rules let them end it now. */
  endTurn: { label: string; help?: string } | null;
  names: Names;
  /** What a ruleset's hook threw, by hook: shown as an error, never replaced by something else. */
  errors: string[];
}

/** Says neither who acts nor what to press: a turn this viewer may not see. */
export const HIDDEN_TURN = 'Someone unseen is acting';

/** Asks the ruleset something; what it throws is kept in `errors`, and `none` stands in its place. */
export type Ask = <T>(what: string, f: () => T, none: T) => T;

export function asker(rs: AnyRuleset): { ask: Ask; errors: string[] } {
  const errors: string[] = [];
  const ask: Ask = (what, f, none) => {
    try {
      return f();
    } catch (e) {
      errors.push(`${rs.name} could not work out ${what}: ${e instanceof Error ? e.message : String(e)}`);
      return none;
    }
  };
  return { ask, errors };
}

export function screenOf(input: ScreenInput): Screen {
  const { view, viewer, ruleset: rs, entries } = input;
  const { ask, errors } = asker(rs);
  const names = namesOf(view, entries);
  const state = describingState(view, names);
  const actor = input.actor && view.combatants[input.actor] ? input.actor : null;
  const endTurn = endTurnOf(view, viewer, rs, ask);
  const actions =
    actor && view.status !== 'ended'
      ? ask('the legal actions', () => legalActions(state, actor, { [rs.id]: rs }), [])
      : [];
  const controls = controlsOf(viewer, rs, actions, endTurn);
  const say = (text: string) => forViewer(text, controls);
  // A log line or the phase is read at any time: "press Next" there is the GM's, even on a player's turn.
  const sayLater = (text: string) => forViewer(text, { ...controls, endTurn: null });
  const headline = headlineOf(view, state, rs, names, ask, sayLater, viewer.role === 'gm');
  const shownActions = actions.map((l) => (l.reason ? { ...l, reason: say(l.reason) } : l));
  const panels = actor
    ? ask('the panels', () => rs.present?.panels?.(state, state.combatants[actor]!) ?? [], [])
    : [];
  const timeline = ask(
    'the timeline',
    () => roundsShown(timelineSeenBy(rs.timeline(state), viewer, names, input.numbers), input.rounds ?? 2),
    null,
  );
  const steady = ask('the order', () => rs.present?.steadyOrder?.(state) ?? null, null);
  const order = roundOrder(view, entries, steady).map((id) =>
    rowOf(view, state, rs, viewer, id, input.numbers === true, ask),
  );
  const next = upNext(view).map((id) => names.of(id));
  const log = logOf(state, entries, rs, input.logLimit ?? 60, ask).map((l) => ({
    ...l,
    text: sayLater(l.text),
  }));
  return {
    headline,
    next,
    order,
    timeline,
    actions: shownActions,
    panels,
    log,
    controls,
    endTurn,
    names,
    errors,
  };
}

export function headlineOf(
  view: EncounterView,
  state: EncounterState,
  rs: AnyRuleset,
  names: Names,
  ask: Ask,
  say: (text: string) => string,
  gm: boolean,
): Headline {
  const status = view.status;
  const base = { actorId: null, status, named: false };
  if (status === 'setup')
    return {
      ...base,
      clock: 'Not started',
      actor: gm ? 'Roll initiative to begin' : 'The GM rolls initiative to begin',
    };
  if (status === 'ended') {
    const clock =
      rs.clock.roundless && view.now
        ? `Ended at ${ask('the moment', () => rs.clock.describe(state, view.now!), `Tick ${view.round}`)}`
        : `Ended in round ${view.round}`;
    return { ...base, clock, actor: 'The encounter is over' };
  }
  const clock = view.now
    ? ask('the moment', () => rs.clock.describe(state, view.now!), `Round ${view.round}`)
    : `Round ${view.round}`;
  if (view.current) {
    const name = names.of(view.current);
    if (clock.includes(name))
      return { clock, actor: `${name} acts`, actorId: view.current, status, named: true };
    return { clock, actor: `${name}'s turn`, actorId: view.current, status, named: false };
  }
  // Between turns: the moment, unless it names a turn (one that passed, or one this viewer may not see).
  const namesTurn = /turn/i.test(clock) || [...names.byId.values()].some((n) => clock.includes(n));
  // A turn the view hides is under way: say so, without guessing whose or asking anyone to press anything.
  if (view.unseenTurn)
    return { ...base, clock: namesTurn ? `Round ${view.round}` : clock, actor: HIDDEN_TURN };
  const phase = ask('the phase', () => rs.present?.phase?.(state) ?? null, null);
  return {
    ...base,
    clock: namesTurn ? `Round ${view.round}` : clock,
    actor: say(phase ?? 'Waiting for the next turn'),
  };
}

function upNext(v: EncounterView, n = 3): string[] {
  const out: string[] = [];
  for (const a of v.agenda) {
    if (out.length >= n) break;
    const id = a.combatant;
    if (a.kind === 'turn' && id && id !== v.current && v.combatants[id] && !out.includes(id)) out.push(id);
  }
  return out;
}

/** HP as shown: never below 0 (no shipped ruleset counts negative HP), the temporary HP beside it. */
export function hpText(hp: { current: number; max: number; temp?: number }): string {
  return `${Math.max(0, hp.current)}/${hp.max}${hp.temp ? ` +${hp.temp} temp` : ''}`;
}

/** How hurt a combatant looks from across the table, without its numbers. */
export function hurtWords(c: EncounterView['combatants'][string]): string | null {
  if (!c.active) return 'down';
  // The server sent a word in place of the numbers (the GM's HP setting), or nothing (hidden).
  if (!c.hp?.max) return c.hpWord ?? null;
  if (c.hp.current <= 0) return 'down';
  if (c.hp.current < c.hp.max / 2) return 'bloodied';
  if (c.hp.current < c.hp.max) return 'hurt';
  return 'unhurt';
}

function rowOf(
  view: EncounterView,
  state: EncounterState,
  rs: AnyRuleset,
  viewer: Viewer,
  id: string,
  numbers: boolean,
  ask: Ask,
): Row {
  const c = state.combatants[id]!;
  const own = viewer.role === 'gm' || (viewer.role === 'player' && viewer.combatants.includes(id));
  const seesNumbers = own || c.side === 'pc' || numbers;
  const status = c.hp && seesNumbers ? `${hpText(c.hp)} HP` : hurtWords(c);
  // An NPC's gauges (stamina, defense) are the GM's, unless the GM shows numbers to the table.
  const gauges = seesNumbers
    ? ask(`${c.name}'s gauges`, () => rs.present?.gauges?.(state, c) ?? [], [])
        .filter((g) => !g.private || own)
        .map((g) =>
          g.fill === undefined
            ? { label: g.label, value: g.value }
            : { label: g.label, value: g.value, fill: g.fill },
        )
    : [];
  return { id, name: c.name, side: c.side, current: id === view.current, active: c.active, status, gauges };
}

export function logOf(
  state: EncounterState,
  entries: readonly LogEntry[],
  rs: AnyRuleset,
  limit: number,
  ask: Ask,
): LogLine[] {
  const out: LogLine[] = [];
  const line = (i: number) =>
    ask('a log line', () => describeEvent(entries[i]!.event, stateAt(state, entries, i, rs), rs), null);
  const firstOf = (group: number) => {
    for (let i = 0; i < entries.length; i++) {
      const t = entries[i]!.event.type;
      if (entries[i]!.group !== group || t === 'undo' || t === 'redo') continue;
      const text = line(i);
      if (text) return text;
    }
    return null;
  };
  for (let i = entries.length - 1; i >= 0 && out.length < limit; i--) {
    const e = entries[i]!;
    let text: string | null;
    if ((e.event.type === 'undo' || e.event.type === 'redo') && typeof e.event.group === 'number') {
      const what = firstOf(e.event.group);
      const verb = e.event.type === 'undo' ? 'Undone' : 'Redone';
      text = what ? `${verb}: ${what}` : `${verb}: the GM's last change.`;
    } else text = line(i);
    if (text) out.push({ seq: e.seq, text, kind: e.event.type });
  }
  return out.reverse();
}

/** A player's "End my turn" on their own turn, when the rules let them end it; null for anyone else. */
export function endTurnOf(
  view: EncounterView,
  viewer: Viewer,
  rs: AnyRuleset,
  ask: Ask,
): { label: string; help?: string } | null {
  return viewer.role === 'player'
    ? ask('whether the turn may end', () => playerEnd(view, viewer.combatants, rs), null)
    : null;
}

/** The player's "End my turn" (the rules' own words for Next on their turn), when the rules let them end it. */
function playerEnd(
  view: EncounterView,
  own: readonly string[],
  rs: AnyRuleset,
): { label: string; help?: string } | null {
  if (!view.current || !own.includes(view.current) || view.status !== 'running') return null;
  // A player's view has no dice state: a dry run gets a throwaway one (nothing it rolls is kept).
  const state: EncounterState = { ...view, dice: seededDice(1) };
  const r = decide(
    state,
    { type: 'next' },
    { [rs.id]: rs },
    { by: { role: 'player', combatants: [...own] } },
  );
  if (isRejection(r) && r.code.startsWith('auth/')) return null;
  // Where the same character acts again at once (tara-corax: their next action's Mark comes before anyone
  // else's), Next does not end their turn as far as the table can tell: the button says what it does.
  if (!isRejection(r)) {
    const after = r.reduce((s, e) => evolve(s, e, rs), state);
    if (after.current === view.current) return stillMine(view.combatants[view.current]?.name ?? '');
  }
  const words = commandForms(rs).find((f) => f.type === 'next')?.own;
  return words
    ? { label: words.label, ...(words.help ? { help: words.help } : {}) }
    : { label: 'End my turn' };
}

/** The player's Next when it leads to their own character's next action, not to anyone else's turn. */
export const GO_ON = 'Go on to my next action';
function stillMine(name: string): { label: string; help: string } {
  return { label: GO_ON, help: `${name} acts again next: the clock goes on to ${name}'s next action.` };
}

export function controlsOf(
  viewer: Viewer,
  rs: AnyRuleset,
  actions: readonly LegalAction[],
  endTurn: { label: string } | null,
): Controls {
  if (viewer.role === 'table') return { labels: new Set(), endTurn: null };
  const labels = new Set(actions.map((l) => l.action.name));
  if (viewer.role === 'gm') {
    for (const l of ['Next', 'Roll initiative', 'Undo', 'Redo', 'End the fight', 'Defeat', 'Revive'])
      labels.add(l);
    for (const f of commandForms(rs)) labels.add(f.label);
    return { labels, endTurn: null };
  }
  for (const f of commandForms(rs)) if (f.forActor && !f.gm) labels.add(f.label);
  if (endTurn) labels.add(endTurn.label);
  return { labels, endTurn: endTurn?.label ?? null };
}
