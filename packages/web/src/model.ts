import {
  type AnyRuleset,
  actionCommandOf,
  type Combatant,
  type Command,
  describeDuration,
  type EncounterState,
  type EncounterView,
  roundOrder as engineRoundOrder,
  type Gauge,
  type Json,
  type LegalAction,
  type LogEntry,
} from '@roundkeeper/engine';
import { hpText } from './screen/screen.js';
import { rulesetById } from './store/rulesets.js';

export * from './model-actions.js';

/** Pure helpers between the engine's state and what the screens show. The ruleset, once loaded. */
export function rulesetOf(state: { ruleset: string }): AnyRuleset | undefined {
  return rulesetById(state.ruleset);
}

/** The engine's functions take an EncounterState; a view only lacks the dice state. */
export function asState(v: EncounterView): EncounterState {
  return v as unknown as EncounterState;
}

export interface Headline {
  /** "Round 2 · Mark 17", "Round 1 · tempo 5 (PCs)", "Round 1 · start of Ana's turn". */
  clock: string;
  /** Whose turn it is, by name, or a sentence when nobody's. */
  actor: string;
  status: string;
  /** The clock already says whose turn it is ("Round 2 · Ana's turn"): a short headline may skip `actor`. */
  named?: boolean;
}

export function headline(v: EncounterView): Headline {
  const rs = rulesetOf(v);
  const state = asState(v);
  const actorName = v.current ? (v.combatants[v.current]?.name ?? v.current) : null;
  if (v.status === 'setup')
    return { clock: 'Not started', actor: 'Roll initiative to begin', status: 'setup' };
  if (v.status === 'ended') {
    // A clock without rounds says where it stopped in its own words: "Ended at Tick 23".
    let clock = `Ended in round ${v.round}`;
    try {
      if (rs?.clock.roundless && v.now) clock = `Ended at ${rs.clock.describe(state, v.now)}`;
    } catch {
      // A clock that cannot describe the moment still has the round.
    }
    return { clock, actor: 'The encounter is over', status: 'ended' };
  }
  let clock = `Round ${v.round}`;
  try {
    if (v.now && rs) clock = rs.clock.describe(state, v.now);
  } catch {
    // A clock that cannot describe the moment still has the round.
  }
  if (!actorName) {
    // Between turns, or during a turn this viewer may not see: the moment, unless it names someone's
    // turn (a turn that has passed, or one the viewer may not see), and the phase.
    const names = v.roster.some((id) => {
      const name = v.combatants[id]?.name;
      return name ? clock.includes(name) : false;
    });
    const phase = phaseOf(v);
    return {
      clock: names || /turn/i.test(clock) ? `Round ${v.round}` : clock,
      actor: phase ?? 'Waiting for the next turn',
      status: v.status,
    };
  }
  // Some clocks already name the actor ("Round 2 · Ana's turn"); then say what the clock does not.
  if (clock.includes(actorName)) return { clock, actor: `${actorName} acts`, status: v.status, named: true };
  return { clock, actor: `${actorName}'s turn`, status: v.status };
}

export interface Resource {
  label: string;
  value: string;
  /** 0..1 for a bar, when the resource has a maximum. */
  fill?: number;
}

/**
 * What a card shows: HP (the engine's), then the ruleset's gauges, headline first. Private gauges (a
 * secret plan's size) only for the GM and the combatant's own player.
 */
export function resourcesOf(v: EncounterView, c: Combatant, showPrivate = true): Resource[] {
  const out: Resource[] = [];
  if (c.hp) {
    out.push({
      label: 'HP',
      // Never below 0 as shown (the screen model's `hpText`).
      value: hpText(c.hp),
      fill: c.hp.max ? Math.max(0, Math.min(1, c.hp.current / c.hp.max)) : undefined,
    });
  }
  const rs = rulesetOf(v);
  let gauges: Gauge[] = [];
  try {
    gauges = rs?.present?.gauges?.(asState(v), c) ?? [];
  } catch (e) {
    // Shown as an error on the card, not replaced by nothing.
    gauges = [
      {
        label: '⚠ Error',
        value: `${rs?.name ?? 'The ruleset'} could not work out the gauges: ${messageOf(e)}`,
      },
    ];
  }
  for (const g of gauges) {
    if (g.private && !showPrivate) continue;
    out.push(
      g.fill === undefined
        ? { label: g.label, value: g.value }
        : { label: g.label, value: g.value, fill: g.fill },
    );
  }
  return out;
}

export interface ConditionLine {
  id: string;
  name: string;
  remaining: string;
}

/**
 * What is left of an effect, from where it expires (resolved when it was added) and where the fight is now:
 * "until the start of Ana's next turn", "until the end of Ana's turn, 2 turns from now", "until the end of
 * this round", "until Round 2 · Mark 9".
 */
export function remainingOf(v: EncounterView, e: EncounterView['effects'][number]): string {
  const x = e.expires;
  const state = asState(v);
  switch (x?.on) {
    case 'turn-start':
    case 'turn-end': {
      const c = v.combatants[x.combatant];
      if (!c) break;
      const left = x.turnsStarted - c.turnsStarted;
      const edge = x.on === 'turn-start' ? 'start' : 'end';
      if (left <= 0) return x.on === 'turn-end' ? `until the end of ${c.name}'s turn` : 'ends now';
      if (left === 1) return `until the ${edge} of ${c.name}'s next turn`;
      return `until the ${edge} of ${c.name}'s turn, ${left} turns from now`;
    }
    case 'round-end': {
      const more = x.round - v.round;
      if (more <= 0) return 'until the end of this round';
      if (v.status === 'setup') return `until the end of round ${x.round}`;
      return `until the end of round ${x.round} (${more} more round${more > 1 ? 's' : ''})`;
    }
    case 'instant': {
      const rs = rulesetOf(v);
      if (!rs) break;
      try {
        return `until ${rs.clock.describe(state, x.at)}`;
      } catch (e) {
        return `⚠ ${rs.name} could not describe the moment it ends: ${messageOf(e)}`;
      }
    }
    case 'never':
      return 'until removed';
    default:
      break;
  }
  return describeDuration(state, e.duration);
}

/** Effects on a combatant with what is left of each, in the GM's words. */
export function conditionsOf(v: EncounterView, id: string): ConditionLine[] {
  return v.effects
    .filter((e) => e.target === id)
    .map((e) => ({ id: e.id, name: e.name, remaining: remainingOf(v, e) }));
}

/** The phase the fight is in when it is nobody's turn ("Planning — …"), in the ruleset's words. */
export function phaseOf(v: EncounterView): string | null {
  if (v.status !== 'running') return null;
  try {
    return rulesetOf(v)?.present?.phase?.(asState(v)) ?? null;
  } catch {
    return null;
  }
}

/** The command a click on a palette action sends, in this ruleset's words, with its parameters. */
export function actionCommand(
  v: EncounterView,
  actor: string,
  la: LegalAction,
  params: Record<string, Json> = {},
): Command {
  const base = actionCommandOf(rulesetOf(v)?.present, asState(v), actor, la.action);
  return { ...base, ...params };
}

export interface NewCombatant {
  name: string;
  side: 'pc' | 'npc';
  hp?: number;
  group?: string;
  hidden?: boolean;
  notes?: string;
  player?: string;
  stats: Record<string, unknown>;
}

/**
 * "Goblin" ×3 → Goblin 1, Goblin 2, Goblin 3 with ids goblin-1…, unique in the roster: exactly as many as
 * asked. The limits are the add form's (`countOf` in forms/add.ts: at most `MOST_AT_ONCE`, said in words)
 * and the server's (an encounter's most combatants, a refusal in words); none is kept here to cut a count
 * to fit without a word.
 */
export function expandCombatants(input: NewCombatant, count: number, roster: readonly string[]): Command[] {
  if (!Number.isInteger(count) || count < 1)
    throw new RangeError(`How many must be a whole number of at least 1, not ${count}.`);
  const n = count;
  const taken = new Set(roster);
  const base =
    input.name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'combatant';
  const out: Command[] = [];
  for (let i = 1; i <= n; i++) {
    const name = n > 1 ? `${input.name} ${i}` : input.name;
    let id = n > 1 ? `${base}-${i}` : base;
    for (let k = 2; taken.has(id); k++) id = `${n > 1 ? `${base}-${i}` : base}-${k}`;
    taken.add(id);
    const combatant: Record<string, unknown> = { id, name, side: input.side, stats: input.stats };
    if (input.hp !== undefined) combatant.hp = input.hp;
    if (input.group) combatant.group = input.group;
    else if (n > 1 && input.side === 'npc') combatant.group = input.name;
    if (input.hidden) combatant.hidden = true;
    if (input.notes) combatant.notes = input.notes;
    if (input.player) combatant.player = input.player;
    out.push({ type: 'add-combatant', combatant });
  }
  return out;
}

/**
 * The round's order (the engine's, on the view): who already had a turn this round, the one acting, the
 * turns still to come, then everyone else; the ruleset's steady order while it keeps one (tempo's
 * planning). The cards and the table read it top to bottom; only the marks of who acts move.
 */
export function roundOrder(v: EncounterView, entries: readonly LogEntry[]): string[] {
  return engineRoundOrder(v, entries, steadyOrder(v));
}

/** The ruleset's own order while it keeps one (`Presentation.steadyOrder`), or null. */
export function steadyOrder(v: EncounterView): string[] | null {
  try {
    return rulesetOf(v)?.present?.steadyOrder?.(asState(v)) ?? null;
  } catch {
    // A ruleset that cannot say leaves the engine's order.
    return null;
  }
}

export { turnOrder } from '@roundkeeper/engine';

/**
 * A name isolated inside a line of text, as `<bdi>` isolates it in an element: between U+2068 (first
 * strong isolate) and U+2069 (pop directional isolate), so a right-to-left override in it cannot reorder
 * the words around it. The isolate marks a name may hold itself are dropped (they are invisible), so a
 * stray U+2069 cannot close the isolate early.
 */
export function isolated(name: string): string {
  return `\u2068${name.replace(/[\u2066-\u2069]/g, '')}\u2069`;
}

/** Who acts after the current turn, in order (at most `n`). */
export function upNext(v: EncounterView, n = 3): string[] {
  const out: string[] = [];
  for (const a of v.agenda) {
    if (out.length >= n) break;
    if (
      a.kind === 'turn' &&
      a.combatant &&
      a.combatant !== v.current &&
      v.combatants[a.combatant] &&
      !out.includes(a.combatant)
    )
      out.push(a.combatant);
  }
  return out;
}

/** How hurt a combatant looks from across the table, without its numbers (the screen model's). */
export { hurtWords } from './screen/screen.js';

/**
 * What a GM types on an HP value: "-7" is 7 damage, "+5" heals 5, "12" sets the current HP, "t5" or
 * "temp 5" sets temporary HP. Null when it reads as none of these.
 */
export function hpEdit(
  text: string,
):
  | { kind: 'damage' | 'heal'; amount: number }
  | { kind: 'set'; current: number }
  | { kind: 'temp'; temp: number }
  | null {
  const t = text.trim().toLowerCase();
  let m = /^([+-])\s*(\d{1,7})$/.exec(t);
  if (m) {
    const amount = Number(m[2]);
    if (amount === 0) return null;
    return { kind: m[1] === '-' ? 'damage' : 'heal', amount };
  }
  m = /^(?:t|temp)\s*(\d{1,7})$/.exec(t);
  if (m) return { kind: 'temp', temp: Number(m[1]) };
  m = /^(\d{1,7})$/.exec(t);
  if (m) return { kind: 'set', current: Number(m[1]) };
  return null;
}

/**
 * A line of text cut where the given names stand (longest first, so "Goblin 10" is not read as "Goblin
 * 1"): each name can then be isolated on its own (`<bdi>`), so a right-to-left override inside a name
 * cannot reorder the words after it.
 */
export function splitNames(text: string, names: readonly string[]): { text: string; name: boolean }[] {
  const pattern = namePattern(names);
  const out: { text: string; name: boolean }[] = [];
  let i = 0;
  if (pattern) {
    pattern.lastIndex = 0;
    for (let hit = pattern.exec(text); hit; hit = pattern.exec(text)) {
      if (hit.index > i) out.push({ text: text.slice(i, hit.index), name: false });
      out.push({ text: hit[0], name: true });
      i = hit.index + hit[0].length;
    }
  }
  if (i < text.length) out.push({ text: text.slice(i), name: false });
  return out;
}

/**
 * The roster's names as one pattern, longest first (where "Goblin 1" and "Goblin 10" both match, the
 * longer is the name), built once per roster: every new log line is cut with it.
 */
const namePatterns = new Map<string, RegExp | null>();

function namePattern(names: readonly string[]): RegExp | null {
  const key = names.join('\n');
  let pattern = namePatterns.get(key);
  if (pattern === undefined) {
    const sorted = [...new Set(names.filter((n) => n.length > 0))].sort((a, b) => b.length - a.length);
    pattern = sorted.length
      ? new RegExp(sorted.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g')
      : null;
    if (namePatterns.size > 32) namePatterns.clear();
    namePatterns.set(key, pattern);
  }
  return pattern;
}

/** What a ruleset threw, in words. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
