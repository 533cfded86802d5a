import {
  type ActionDef,
  type Command,
  type EncounterState,
  type EngineEvent,
  type JsonObject,
  type LegalAction,
  type Rng,
  readPath,
} from '@roundkeeper/engine';
import { z } from 'zod';

/**
 * Policies: how a simulated combatant chooses what to do. A policy is an ordered list of rules; at each
 * moment a player chooses (`on`: its own turn, the planning before the turns, someone else's turn, the
 * initiative roll) the combatant takes the first rule of that moment whose action is enabled (by the
 * ruleset's `legalActions`) and whose conditions hold, sends it as a command (`act` unless the rule names
 * another of the ruleset's commands: declare, plan, react, delay…), and looks again; when no rule fits,
 * its turn ends (`next`). Nothing here knows a ruleset: actions are picked by id, tag or kind from the
 * legal actions, and extra command fields (`with`) are passed through for the ruleset to validate.
 */

/**
 * When a rule is asked: `turn`, on the combatant's own turn; `planning`, while the clock waits for every
 * combatant's plans (nobody's turn yet: tempo's planning); `others`, after each command on someone
 * else's turn (reactions, a delayed turn taken between two actions); `roll`, with the GM's command that
 * rolls initiative (`start`, and a `next` between rounds): the rule's `with` fields are sent keyed by
 * the combatant (`{delay: up}` → `delay: {ana: up}`).
 */
export const MOMENTS = ['turn', 'planning', 'others', 'roll'] as const;
export type Moment = (typeof MOMENTS)[number];

const range = z.union([
  z.number(),
  z.object({ min: z.number().optional(), max: z.number().optional() }).strict().describe('inclusive bounds'),
]);
export type Range = z.output<typeof range>;

export const conditionSchema = z
  .object({
    /** The round number. */
    round: range.optional(),
    /** Current HP as a fraction of maximum HP, e.g. {max: 0.5} for "at half HP or below". */
    hp: range.optional(),
    /** Paths into the combatant's ruleset state (`cs`), e.g. {marksLeft: {min: 15}}. */
    cs: z.record(z.string(), z.union([range, z.string(), z.boolean()])).optional(),
    /** How many actions the combatant has already taken this turn. */
    actionsThisTurn: range.optional(),
    /** True only in a turn taken after delaying (by an `on: others` rule), false only in any other turn. */
    delayedTurn: z.boolean().optional(),
    /** Only right after a command that recorded an event of this type (`on: others`: a reaction's trigger). */
    after: z.string().min(1).optional(),
    /** With `after`: the event names this combatant (`self`) as its target, or one of its side (`ally`). */
    targets: z.enum(['self', 'ally']).optional(),
  })
  .strict();
export type Condition = z.output<typeof conditionSchema>;

export const ruleSchema = z
  .object({
    /** The command sent: `act` (the default) or another of the ruleset's (declare, plan, react, delay…). */
    command: z.string().min(1).optional(),
    /** When the rule is asked (see `MOMENTS`); by default `planning` for `plan`, `others` for `react`, else `turn`. */
    on: z.enum(MOMENTS).optional(),
    /** An action id from the catalog (or a custom action). */
    action: z.string().min(1).optional(),
    /** Or: the first enabled action carrying this tag ("attack", "spell", "move"). */
    tag: z.string().min(1).optional(),
    /** Or: the first enabled action of this kind ("full", "bonus"…). */
    kind: z.string().min(1).optional(),
    /** Who the action is aimed at: enemy, weakest-enemy, random-enemy, ally, self, or a combatant id. */
    target: z.string().min(1).optional(),
    /** Extra fields for the act command, as the ruleset names them ({units: 3}, {castingTime: 20}). */
    with: z.record(z.string(), z.json()).optional(),
    /** Damage dealt to the target when the action is accepted (dice notation); 0 HP defeats it. */
    damage: z.string().min(1).optional(),
    /** How often this rule may fire in one turn (default once). */
    times: z.number().int().min(1).max(100).default(1),
    when: conditionSchema.optional(),
  })
  .strict()
  .refine((r) => r.action || r.tag || r.kind || r.command || r.on === 'roll', {
    message: 'a policy rule names an "action", a "tag", a "kind" or a "command"',
  });
export type PolicyRule = z.output<typeof ruleSchema>;

/** A combatant's policy when the scenario names none: attack the first enemy, once per turn. */
export const DEFAULT_POLICY: PolicyRule[] = [{ tag: 'attack', target: 'enemy', times: 1 }];

function inRange(value: number | undefined, r: Range): boolean {
  if (value === undefined) return false;
  if (typeof r === 'number') return value === r;
  return (r.min === undefined || value >= r.min) && (r.max === undefined || value <= r.max);
}

/** The moment a rule is asked at (see `MOMENTS`). */
export function momentOf(rule: PolicyRule): Moment {
  if (rule.on) return rule.on;
  if (rule.command === 'plan') return 'planning';
  if (rule.command === 'react') return 'others';
  return 'turn';
}

/** Whether one of `events` is of the `after` type and, with `targets`, aimed at the actor or its side. */
function triggered(
  state: EncounterState,
  actor: string,
  when: Condition,
  events: readonly EngineEvent[],
): boolean {
  const side = state.combatants[actor]?.side;
  return events.some((e) => {
    if (e.type !== when.after) return false;
    if (e.combatant === actor) return false;
    if (!when.targets) return true;
    const t = typeof e.target === 'string' ? e.target : undefined;
    if (t === undefined) return false;
    return when.targets === 'self' ? t === actor : state.combatants[t]?.side === side;
  });
}

export { readPath };

/** A condition's `cs` paths and wants, listed once per condition (a policy is never changed while it plays). */
const CS_ENTRIES = new WeakMap<NonNullable<Condition['cs']>, Array<[string, Range | string | boolean]>>();

function csEntries(cs: NonNullable<Condition['cs']>): Array<[string, Range | string | boolean]> {
  let entries = CS_ENTRIES.get(cs);
  if (entries === undefined) {
    entries = Object.entries(cs);
    CS_ENTRIES.set(cs, entries);
  }
  return entries;
}

export function holds(
  state: EncounterState,
  actor: string,
  when: Condition | undefined,
  actionsThisTurn: number,
  events: readonly EngineEvent[] = [],
  delayedTurn = false,
): boolean {
  if (!when) return true;
  if (when.delayedTurn !== undefined && when.delayedTurn !== delayedTurn) return false;
  const c = state.combatants[actor];
  if (!c) return false;
  if (when.after !== undefined && !triggered(state, actor, when, events)) return false;
  if (when.round !== undefined && !inRange(state.round, when.round)) return false;
  if (when.actionsThisTurn !== undefined && !inRange(actionsThisTurn, when.actionsThisTurn)) return false;
  if (when.hp !== undefined) {
    if (!c.hp || c.hp.max === 0) return false;
    if (!inRange(c.hp.current / c.hp.max, when.hp)) return false;
  }
  if (when.cs) {
    for (const [path, want] of csEntries(when.cs)) {
      const got = readPath(c.cs, path);
      if (typeof want === 'string' || typeof want === 'boolean') {
        if (got !== want) return false;
      } else if (typeof got !== 'number' || !inRange(got, want)) return false;
    }
  }
  return true;
}

/** The first active combatant of another side, in roster order (`enemy`), without listing them all. */
function firstEnemy(state: EncounterState, actor: string): string | undefined {
  const side = state.combatants[actor]?.side;
  for (const id of state.roster) {
    const c = state.combatants[id]!;
    if (c.active && c.side !== side) return id;
  }
  return undefined;
}

function enemies(state: EncounterState, actor: string): string[] {
  const side = state.combatants[actor]?.side;
  return state.roster.filter((id) => {
    const c = state.combatants[id]!;
    return c.active && c.side !== side;
  });
}

/** The target a rule names, or undefined when there is none (no enemy left). */
export function resolveTarget(
  state: EncounterState,
  actor: string,
  target: string,
  rng: Rng,
): string | undefined {
  switch (target) {
    case 'self':
      return actor;
    case 'enemy':
      return firstEnemy(state, actor);
    case 'weakest-enemy': {
      let best: string | undefined;
      let bestHp = Number.POSITIVE_INFINITY;
      for (const id of enemies(state, actor)) {
        const hp = state.combatants[id]!.hp?.current ?? Number.POSITIVE_INFINITY;
        if (best === undefined || hp < bestHp) {
          best = id;
          bestHp = hp;
        }
      }
      return best;
    }
    case 'random-enemy': {
      const list = enemies(state, actor);
      return list.length ? list[rng.int(0, list.length - 1)] : undefined;
    }
    case 'ally': {
      const side = state.combatants[actor]?.side;
      return state.roster.find(
        (id) => id !== actor && state.combatants[id]!.active && state.combatants[id]!.side === side,
      );
    }
    default:
      return state.combatants[target]?.active ? target : undefined;
  }
}

export interface Choice {
  /** The rule's index in the policy. */
  rule: number;
  command: Command;
  target?: string;
  damage?: string;
}

/**
 * Whether the rule picks its action from the legal actions: by tag or kind, or an action named without a
 * command (`{action: slash}`: when it is enabled). A rule naming its command (`{command: act, action:
 * slash}`) sends it as asked, and the rules' refusal is counted under it.
 */
function picksFromLegal(rule: PolicyRule): boolean {
  if (rule.tag !== undefined || rule.kind !== undefined) return true;
  return rule.action !== undefined && rule.command === undefined;
}

/** The actions a rule picks among (its action, tag and kind), made once per rule (rules are never changed). */
const FITS = new WeakMap<PolicyRule, (a: ActionDef) => boolean>();

function fitsOf(rule: PolicyRule): (a: ActionDef) => boolean {
  let fits = FITS.get(rule);
  if (fits === undefined) {
    const { action, tag, kind } = rule;
    fits = (a) =>
      (action === undefined || a.id === action) &&
      (tag === undefined || a.tags.includes(tag)) &&
      (kind === undefined || a.kind === kind);
    FITS.set(rule, fits);
  }
  return fits;
}

/**
 * Each rule's moment and, for a rule that picks from the legal actions, its candidate filter (else
 * undefined): worked out once per policy (a policy is read, never changed, while it plays), so choosing
 * looks the policy up once, not each rule.
 */
interface PolicyParts {
  moments: Moment[];
  fits: Array<((a: ActionDef) => boolean) | undefined>;
}

const PARTS_OF = new WeakMap<readonly PolicyRule[], PolicyParts>();

function partsOf(policy: readonly PolicyRule[]): PolicyParts {
  let parts = PARTS_OF.get(policy);
  if (parts === undefined || parts.moments.length !== policy.length) {
    parts = {
      moments: policy.map(momentOf),
      fits: policy.map((rule) => (picksFromLegal(rule) ? fitsOf(rule) : undefined)),
    };
    PARTS_OF.set(policy, parts);
  }
  return parts;
}

/** The commands each rule has sent, by actor, action and target: made once, deeply frozen (see `commandOf`). */
const COMMANDS = new WeakMap<
  PolicyRule,
  {
    last:
      | { actor: string; action: string | undefined; target: string | undefined; command: Command }
      | undefined;
    all: Map<string, Command>;
  }
>();

/**
 * The command a rule sends for this actor, action and target. Made once and deeply frozen: the engine
 * checks a frozen command once and remembers it (`checkFrozenCommand`), where a fresh object would be
 * checked by its JSON text at every send. The rule's `with` fields are copied, never frozen in the rule.
 */
function commandOf(
  rule: PolicyRule,
  actor: string,
  action: string | undefined,
  target: string | undefined,
): Command {
  let byKey = COMMANDS.get(rule);
  if (byKey === undefined) {
    byKey = { last: undefined, all: new Map() };
    COMMANDS.set(rule, byKey);
  }
  // Most sends repeat the rule's last one (the same actor, action and target): no key is made for it.
  const last = byKey.last;
  if (last !== undefined && last.actor === actor && last.action === action && last.target === target)
    return last.command;
  const key = `${actor}\u0000${action ?? ''}\u0000${target ?? ''}`;
  let command = byKey.all.get(key);
  if (command === undefined) {
    const type = rule.command ?? 'act';
    const bare: Command = action !== undefined ? { type, actor, action } : { type, actor };
    command = rule.with ? { ...bare, ...(structuredClone(rule.with) as JsonObject) } : bare;
    if (target !== undefined) command.target = target;
    command = deepFreeze(command);
    if (byKey.all.size >= 1000) byKey.all.clear();
    byKey.all.set(key, command);
  }
  // The last send, written over (one record per rule, not one per change of target).
  if (last === undefined) byKey.last = { actor, action, target, command };
  else {
    last.actor = actor;
    last.action = action;
    last.target = target;
    last.command = command;
  }
  return command;
}

/** `v`, frozen through and through. */
export function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

/**
 * The first rule of this moment that fits now: its action enabled, its conditions true, its uses this
 * turn not spent. `used[i]` counts rule i's uses this turn; `legal` is asked only when a rule needs it.
 * `events` are the last command's (for `when.after`).
 */
export function choose(
  state: EncounterState,
  actor: string,
  policy: readonly PolicyRule[],
  legal: (only?: (action: ActionDef) => boolean) => readonly LegalAction[],
  used: readonly number[],
  actionsThisTurn: number,
  rng: Rng,
  moment: Moment = 'turn',
  events: readonly EngineEvent[] = [],
  delayedTurn = false,
): Choice | undefined {
  const { moments, fits: fitting } = partsOf(policy);
  for (let i = 0; i < policy.length; i++) {
    const rule = policy[i]!;
    if (moments[i] !== moment) continue;
    if ((used[i] ?? 0) >= rule.times) continue;
    // The conditions first: they are cheap, and the legal actions are not.
    if (!holds(state, actor, rule.when, actionsThisTurn, events, delayedTurn)) continue;
    let action = rule.action;
    const fits = fitting[i];
    if (fits !== undefined) {
      // Only the rule's candidates are asked about (a ruleset may check only those); the first enabled.
      let pick: LegalAction | undefined;
      for (const l of legal(fits)) {
        if (l.enabled && fits(l.action)) {
          pick = l;
          break;
        }
      }
      if (!pick) continue;
      action = pick.action.id;
    }
    let target: string | undefined;
    if (rule.target) {
      target = resolveTarget(state, actor, rule.target, rng);
      if (target === undefined) continue;
    }
    const choice: Choice = { rule: i, command: commandOf(rule, actor, action, target) };
    if (target !== undefined) choice.target = target;
    if (rule.damage !== undefined) choice.damage = rule.damage;
    return choice;
  }
  return undefined;
}

/** A rule as a designer reads it in a message: "ana's rule 2 (plan quick-attack)". */
export function ruleLabel(owner: string, index: number, rule: PolicyRule): string {
  const what = [
    rule.on === 'roll' ? 'with the roll' : (rule.command ?? 'act'),
    rule.action ?? (rule.tag ? `tag ${rule.tag}` : rule.kind ? `kind ${rule.kind}` : ''),
  ]
    .filter(Boolean)
    .join(' ');
  return `${owner}'s rule ${index + 1} (${what})`;
}
