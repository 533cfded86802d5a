import { rulesetFor } from './engine.js';
import {
  type CommandWords,
  commandLabel,
  jsonSchemaOf,
  type Param,
  type ParamOption,
  paramsOfSchema,
} from './params.js';
import { actionCommandOf, type Presentation } from './present.js';
import type { AnyRuleset, RulesetRegistry } from './ruleset.js';
import { type ActionDef, type EncounterState, isRejection, type LegalAction } from './types.js';

/** The ruleset's catalog plus the encounter's custom actions. */
/** `candidates`' answers, by catalog list and predicate. */
const CANDIDATES = new WeakMap<readonly ActionDef[], WeakMap<(action: ActionDef) => boolean, ActionDef[]>>();

/**
 * The actions of `actions` that `only` keeps (see `Ruleset.legalActions`), filtered once per list and
 * predicate: a simulation asks about the same candidates of the same catalog at every choice. `only` must
 * answer by the action alone, and `actions` must never change (a ruleset's catalog list, made once).
 * Read the answer, never change it.
 */
export function candidates(
  actions: readonly ActionDef[],
  only: (action: ActionDef) => boolean,
): readonly ActionDef[] {
  let byOnly = CANDIDATES.get(actions);
  if (byOnly === undefined) {
    byOnly = new WeakMap();
    CANDIDATES.set(actions, byOnly);
  }
  let kept = byOnly.get(only);
  if (kept === undefined) {
    kept = actions.filter(only);
    byOnly.set(only, kept);
  }
  return kept;
}

/** `catalogWith`'s lists, by built-in catalog and custom-action list. */
const CATALOGS = new WeakMap<readonly ActionDef[], WeakMap<readonly ActionDef[], readonly ActionDef[]>>();

/**
 * `[...base, ...custom]`: a ruleset's catalog then the encounter's custom actions, the same list each time
 * for the same two lists (a state's custom actions are never changed in place: a change makes a new
 * list), so a simulation asking at every choice does not build it again. Read the answer, never change it.
 */
export function catalogWith(base: readonly ActionDef[], custom: readonly ActionDef[]): readonly ActionDef[] {
  let byCustom = CATALOGS.get(base);
  if (byCustom === undefined) {
    byCustom = new WeakMap();
    CATALOGS.set(base, byCustom);
  }
  let list = byCustom.get(custom);
  if (list === undefined) {
    list = [...base, ...custom];
    byCustom.set(custom, list);
  }
  return list;
}

/** Each action list's actions by id (the first of an id, as `find` would give). */
const BY_ID = new WeakMap<readonly ActionDef[], Map<string, ActionDef>>();

/** The action `id` of `list` (`list.find` by id, without the walk; `list` must never change). */
export function actionById(list: readonly ActionDef[], id: string): ActionDef | undefined {
  let byId = BY_ID.get(list);
  if (byId === undefined) {
    byId = new Map();
    for (const a of list) if (!byId.has(a.id)) byId.set(a.id, a);
    BY_ID.set(list, byId);
  }
  return byId.get(id);
}

export function fullCatalog(state: EncounterState, registry: RulesetRegistry): ActionDef[] {
  const ruleset = rulesetFor(state, registry);
  if (isRejection(ruleset)) return [];
  return [...ruleset.catalog(state), ...state.customActions];
}

/**
 * What an action takes, as form fields: the fields it names of the command a palette click sends (`act`,
 * or the ruleset's `present.actionCommand`: tempo plans an action and answers a reaction), described by
 * that command's schema, with what the action changes (required here, its own label or bounds).
 */
export function actionParams(ruleset: AnyRuleset, action: ActionDef, command = 'act'): readonly Param[] {
  if (!action.params?.length) return [];
  // A palette asks on every change for the same definitions: each is read once per ruleset and command.
  let byAction = actionParamLists.get(ruleset);
  if (!byAction) {
    byAction = new WeakMap();
    actionParamLists.set(ruleset, byAction);
  }
  let byCommand = byAction.get(action);
  if (!byCommand) {
    byCommand = new Map();
    byAction.set(action, byCommand);
  }
  let out = byCommand.get(command);
  if (!out) {
    out = readActionParams(ruleset, action, command);
    byCommand.set(command, out);
  }
  return out;
}

const actionParamLists = new WeakMap<AnyRuleset, WeakMap<ActionDef, Map<string, readonly Param[]>>>();

function readActionParams(ruleset: AnyRuleset, action: ActionDef, command: string): Param[] {
  if (!action.params?.length) return [];
  const act = Object.hasOwn(ruleset.commands, command) ? ruleset.commands[command] : undefined;
  const fields = act ? paramsOfSchema(act) : [];
  const out: Param[] = [];
  for (const ref of action.params) {
    const name = typeof ref === 'string' ? ref : ref.name;
    const field = fields.find((f) => f.name === name);
    if (!field) continue;
    if (typeof ref === 'string') {
      out.push(field);
      continue;
    }
    const p: Param = { ...field };
    if (ref.required !== undefined) p.required = ref.required;
    if (ref.label) p.label = ref.label;
    if (ref.default !== undefined) p.default = ref.default;
    if (ref.min !== undefined) p.min = ref.min;
    if (ref.max !== undefined) p.max = ref.max;
    if (ref.from) p.from = ref.from;
    out.push(p);
  }
  return out;
}

function sheetOptions(value: unknown): ParamOption[] {
  // Entries keyed by their name ({ Bow: {…}, Dagger: {…} }).
  if (value && typeof value === 'object' && !Array.isArray(value))
    return Object.keys(value).map((name) => ({ value: name, label: name }));
  if (!Array.isArray(value)) return [];
  const out: ParamOption[] = [];
  for (const v of value) {
    if (typeof v === 'string') out.push({ value: v, label: v });
    else if (v && typeof v === 'object') {
      const { id, name } = v as { id?: unknown; name?: unknown };
      if (typeof name === 'string') out.push({ value: typeof id === 'string' ? id : name, label: name });
    }
  }
  return out;
}

/**
 * Parameters with their choices for one actor: combatants by source (others, allies, enemies — active
 * ones, in roster order), entries of the actor's sheet (`stat:weapons`), or what the ruleset lists
 * (`rules:plans`, from `present.choices`). Pure: run it on a viewer's view and the choices are what that
 * viewer may see.
 */
export function resolveParams(
  state: EncounterState,
  actor: string,
  params: readonly Param[],
  actions: readonly ActionDef[] = [],
  present?: Presentation,
): Param[] {
  const self = Object.hasOwn(state.combatants, actor) ? state.combatants[actor] : undefined;
  return params.map((p) => {
    const resolved: Param = { ...p };
    if (p.fields) resolved.fields = resolveParams(state, actor, p.fields, actions, present);
    if (!p.from) return resolved;
    if (p.from.startsWith('rules:')) {
      resolved.options = present?.choices?.(state, actor, p.from.slice(6)) ?? [];
      return resolved;
    }
    if (p.from === 'actions') {
      resolved.options = actions.map((a) => ({ value: a.id, label: a.name }));
      return resolved;
    }
    if (p.from.startsWith('stat:')) {
      const stats = (self?.stats ?? {}) as Record<string, unknown>;
      resolved.options = sheetOptions(stats[p.from.slice(5)]);
      return resolved;
    }
    const options: ParamOption[] = [];
    for (const id of state.roster) {
      const c = state.combatants[id];
      if (!c) continue;
      if (p.from !== 'combatants' && id === actor) continue;
      if (p.from === 'allies' && self && c.side !== self.side) continue;
      if (p.from === 'enemies' && self && c.side === self.side) continue;
      if (!c.active && p.from !== 'combatants') continue;
      options.push({ value: id, label: c.name });
    }
    resolved.options = options;
    return resolved;
  });
}

/** Every action of the actor's catalog, enabled or with the reason it is not, with its parameters. */
export function legalActions(state: EncounterState, actor: string, registry: RulesetRegistry): LegalAction[] {
  const ruleset = rulesetFor(state, registry);
  if (isRejection(ruleset)) return [];
  // An action to ready or to make an attack as: the actor's catalog, each action once.
  const catalog = [...new Map(fullCatalog(state, registry).map((a) => [a.id, a])).values()];
  return ruleset.legalActions(state, actor).map((l) => {
    const command = actionCommandOf(ruleset.present, state, actor, l.action).type;
    const params = actionParams(ruleset, l.action, command);
    return params.length
      ? { ...l, params: resolveParams(state, actor, params, catalog, ruleset.present) }
      : l;
  });
}

/** A ruleset command as a form: its label, help and fields (the actor field aside). */
export interface CommandForm {
  type: string;
  label: string;
  help?: string;
  /** A player's words for it when they send it for their own character (`ParamMeta.own`). */
  own?: CommandWords;
  /** Whether it is sent for a combatant (it has an `actor` field). */
  forActor: boolean;
  /** A GM's command: player links may not send it unless the GM allows it. */
  gm: boolean;
  params: Param[];
}

/** The ruleset's own commands as forms, `act` aside (actions are taken from the catalog). */
export function commandForms(ruleset: AnyRuleset): CommandForm[] {
  const out: CommandForm[] = [];
  for (const [type, schema] of Object.entries(ruleset.commands)) {
    if (type === 'act') continue;
    const all = paramsOfSchema(schema);
    out.push({
      type,
      ...commandLabel(type, schema),
      forActor: all.some((p) => p.name === 'actor'),
      gm: jsonSchemaOf(schema).gm === true,
      params: all.filter((p) => p.name !== 'actor'),
    });
  }
  return out;
}
