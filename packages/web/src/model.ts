import {
  type AnyRuleset,
  type Combatant,
  type Command,
  describeDuration,
  type EncounterState,
  type EncounterView,
  type LegalAction,
} from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';

/** Pure helpers between the engine's state and what the screens show. */
export function rulesetOf(state: { ruleset: string }): AnyRuleset | undefined {
  return Object.hasOwn(rulesets, state.ruleset) ? rulesets[state.ruleset] : undefined;
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
}

export function headline(v: EncounterView): Headline {
  const rs = rulesetOf(v);
  const state = asState(v);
  const actorName = v.current ? (v.combatants[v.current]?.name ?? v.current) : null;
  if (v.status === 'setup')
    return { clock: 'Not started', actor: 'Roll initiative to begin', status: 'setup' };
  if (v.status === 'ended')
    return { clock: `Ended in round ${v.round}`, actor: 'The encounter is over', status: 'ended' };
  const clock = v.now && rs ? rs.clock.describe(state, v.now) : `Round ${v.round}`;
  const actor = actorName ? `${actorName}'s turn` : 'No one is acting';
  // Some clocks already name the actor ("Round 2 · Ana's turn"); then say what the clock does not.
  if (actorName && clock.includes(actorName)) return { clock, actor: `${actorName} acts`, status: v.status };
  return { clock, actor, status: v.status };
}

export interface Resource {
  label: string;
  value: string;
  /** 0..1 for a bar, when the resource has a maximum. */
  fill?: number;
}

function num(x: unknown): number | null {
  return typeof x === 'number' && Number.isFinite(x) ? x : null;
}

/** The resources that matter in this ruleset, headline first. */
export function resourcesOf(v: EncounterView, c: Combatant): Resource[] {
  const out: Resource[] = [];
  const cs = (c.cs ?? {}) as Record<string, unknown>;
  const stats = (c.stats ?? {}) as Record<string, unknown>;
  const opts = (v.options ?? {}) as Record<string, unknown>;
  if (c.hp) {
    out.push({
      label: 'HP',
      value: `${c.hp.current}/${c.hp.max}${c.hp.temp ? ` +${c.hp.temp}` : ''}`,
      fill: c.hp.max ? Math.max(0, Math.min(1, c.hp.current / c.hp.max)) : undefined,
    });
  }
  switch (v.ruleset) {
    case 'tara-corax': {
      const left = num(cs.marksLeft);
      const score = num(cs.initiativeScore);
      if (left !== null)
        out.push({
          label: 'Marks left',
          value: String(left),
          fill: score ? left / Math.max(score, left) : undefined,
        });
      if (score !== null) out.push({ label: 'Initiative Score', value: String(score) });
      if (num(cs.carryOver)) out.push({ label: 'Carry-over', value: `${cs.carryOver} Marks` });
      const sets = ['meleeSet', 'rangedSet', 'castingSet']
        .filter((k) => cs[k] === true)
        .map((k) => k.replace('Set', ''));
      if (sets.length) out.push({ label: 'Set', value: sets.join(', ') });
      break;
    }
    case 'six-second': {
      const total = num(opts.turnSeconds) ?? 6;
      const used = num(cs.secondsUsed) ?? 0;
      out.push({
        label: 'Seconds left',
        value: `${Math.max(0, total - used)}/${total}`,
        fill: Math.max(0, total - used) / total,
      });
      if (num(cs.initiative) !== null) out.push({ label: 'Initiative', value: String(cs.initiative) });
      const pending = Array.isArray(cs.pending) ? cs.pending.length : 0;
      if (pending) out.push({ label: 'Pending effects', value: String(pending) });
      if (cs.delaying) out.push({ label: 'Delaying', value: 'yes' });
      break;
    }
    case 'tempo': {
      const max = Math.max(1, 2 + (num(stats.FOR) ?? 0));
      const ex = num(cs.exertion) ?? 0;
      out.push({ label: 'Exertion', value: `${ex}/${max}`, fill: ex / max });
      const plan = Array.isArray(cs.plan) ? cs.plan.length : 0;
      const per = num(opts.actionsPerRound) ?? 2;
      out.push({ label: 'Planned', value: `${plan}/${per}` });
      if (num(cs.momentum)) out.push({ label: 'Momentum', value: String(cs.momentum) });
      break;
    }
    case 'stamina': {
      const sMax = num(stats.stamina) ?? 10;
      const dMax = num(stats.defense) ?? 10;
      const s = num(cs.stamina);
      const d = num(cs.defense);
      if (s !== null)
        out.push({ label: 'Stamina', value: `${s}/${sMax}`, fill: sMax ? s / sMax : undefined });
      if (d !== null)
        out.push({ label: 'Defense', value: `${d}/${dMax}`, fill: dMax ? d / dMax : undefined });
      if (num(cs.initiative) !== null) out.push({ label: 'Initiative', value: String(cs.initiative) });
      break;
    }
    case 'opend6': {
      if (num(cs.initiative) !== null) out.push({ label: 'Initiative', value: String(cs.initiative) });
      out.push({ label: 'Character Points', value: String(num(cs.characterPoints) ?? 0) });
      const declared = num(cs.declared);
      out.push({
        label: 'Actions',
        value: declared === null ? 'not declared' : `${num(cs.used) ?? 0}/${declared}`,
      });
      if (cs.waiting) out.push({ label: 'Waiting', value: 'yes' });
      if (cs.unable) out.push({ label: 'Unable', value: String(cs.unable) });
      break;
    }
    default: {
      if (num(cs.initiative) !== null) out.push({ label: 'Initiative', value: String(cs.initiative) });
      const used = cs.used as Record<string, boolean> | undefined;
      if (used && typeof used === 'object') {
        const left = Object.entries(used)
          .filter(([, u]) => !u)
          .map(([k]) => k);
        out.push({ label: 'Available', value: left.length ? left.join(', ') : 'nothing' });
      }
      if (cs.delaying) out.push({ label: 'Delaying', value: 'yes' });
      break;
    }
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
      } catch {
        break;
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

/** The order the table sees: the agenda's upcoming turns, then everyone else in the roster. */
export function turnOrder(v: EncounterView): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  if (v.current) {
    out.push(v.current);
    seen.add(v.current);
  }
  for (const a of v.agenda) {
    if (a.combatant && a.kind === 'turn' && !seen.has(a.combatant) && v.combatants[a.combatant]) {
      seen.add(a.combatant);
      out.push(a.combatant);
    }
  }
  for (const id of v.roster) if (!seen.has(id) && v.combatants[id]) out.push(id);
  return out;
}

/** Whether the count is in tempo's planning phase. */
export function inPlanning(v: EncounterView): boolean {
  return v.ruleset === 'tempo' && v.status === 'running' && (!v.now || v.now.at.length === 0);
}

/** The command a click on a palette action sends, in this ruleset's words. */
export function actionCommand(v: EncounterView, actor: string, la: LegalAction, target?: string): Command {
  const cmd: Command =
    v.ruleset === 'tempo'
      ? la.action.kind === 'reaction'
        ? { type: 'react', actor, reaction: la.action.id, trigger: 'GM call' }
        : { type: 'plan', actor, action: la.action.id }
      : { type: 'act', actor, action: la.action.id };
  if (target) cmd.target = target;
  return cmd;
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

/** "Goblin" ×3 → Goblin 1, Goblin 2, Goblin 3 with ids goblin-1…, unique in the roster. */
export function expandCombatants(input: NewCombatant, count: number, roster: readonly string[]): Command[] {
  const n = Math.max(1, Math.min(50, Math.floor(count)));
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

/** Commands this ruleset accepts from an actor besides the palette (delay, resume, declare…). */
export function actorCommands(rs: AnyRuleset): string[] {
  return Object.keys(rs.commands).filter((k) => k !== 'start' && k !== 'next' && k !== 'act');
}

const NAME = '\u0000';

/** Whether `s[i]` is a letter or digit: a name matches only as a whole word. */
function wordChar(s: string, i: number): boolean {
  return i >= 0 && i < s.length && /[\p{L}\p{N}]/u.test(s[i]!);
}

/**
 * An unavailable action's reason with the action's own name taken out, so that reasons which differ only
 * by it ("It is Orc's turn; Dash is taken on Ana's own turn", "…; Dodge is taken…") compare equal.
 */
export function reasonKey(la: LegalAction): string | null {
  if (la.enabled || !la.reason) return null;
  const name = la.action.name;
  const r = la.reason;
  if (!name) return r;
  let out = '';
  let i = 0;
  for (let at = r.indexOf(name); at >= 0; at = r.indexOf(name, at + 1)) {
    if (at < i || wordChar(r, at - 1) || wordChar(r, at + name.length)) continue;
    out += r.slice(i, at) + NAME;
    i = at + name.length;
  }
  return out + r.slice(i);
}

/**
 * The reason most unavailable actions share, when at least three do: the palette says it once above the
 * buttons instead of under each. Where the actions' own names stood, it says "each greyed-out action".
 */
export function sharedReason(shown: readonly LegalAction[]): { key: string; text: string } | null {
  const count = new Map<string, number>();
  let best: string | null = null;
  for (const l of shown) {
    const key = reasonKey(l);
    if (key === null) continue;
    const n = (count.get(key) ?? 0) + 1;
    count.set(key, n);
    if (best === null || n > count.get(best)!) best = key;
  }
  if (best === null || count.get(best)! < 3) return null;
  const text = best.split(NAME).reduce((acc, part) => {
    const start = acc === '' || /[.!?:]\s*$/.test(acc);
    return `${acc}${start ? 'Each' : 'each'} greyed-out action${part}`;
  });
  return { key: best, text };
}
