import {
  type AnyRuleset,
  actionCommandOf,
  type Command,
  commandLabel,
  describeCost,
  describeEvent,
  EncounterLog,
  type EncounterState,
  isRejection,
  type Json,
  type LegalAction,
  legalActions,
  type RulesetRegistry,
  renderTimelineAscii,
  roundOrder,
  runScenario,
  type ScenarioStep,
  seededDice,
  stateAt,
} from '@roundkeeper/engine';
import { CliError, EXIT, loadScenario, writeOutput } from './load.js';
import { ParamForm } from './play-form.js';
import { scenarioText, toScenario } from './scenario-file.js';

/** Engine commands whose first bare word is a combatant (`damage orc 5`, `defeat orc`). */
const COMBATANT_COMMANDS = new Set([
  'damage',
  'heal',
  'defeat',
  'revive',
  'remove-combatant',
  'set-hp',
  'update-combatant',
]);

/** The keys that do something else than take an action (`PlaySession.key`). */
const COMMAND_KEYS = new Set(['n', 'u', 'r', 't', 'h', 'q', ':', '?']);

/**
 * The keys of the enabled actions, in list order: 1–9, 0 for the 10th, then the letters no other key
 * uses (a, b, c, d, e, f, g, i…), so every action listed has a key however many there are.
 */
export const ACTION_KEYS: readonly string[] = [
  ...'1234567890',
  ...[...'abcdefghijklmnopqrstuvwxyz'].filter((k) => !COMMAND_KEYS.has(k)),
];

/** "1–9", "1–9, 0", "1–9, 0, a–c": the keys of `count` actions, as the key line says them. */
export function actionKeysText(count: number): string {
  const keys = ACTION_KEYS.slice(0, count);
  if (keys.length === 0) return '';
  const digits = keys.slice(0, 9);
  const parts = [digits.length > 1 ? `${digits[0]}–${digits.at(-1)}` : digits[0]!];
  if (keys.length > 9) parts.push('0');
  const letters = keys.slice(10);
  if (letters.length === 1) parts.push(letters[0]!);
  else if (letters.length > 1) parts.push(`${letters[0]}–${letters.at(-1)}`);
  return parts.join(', ');
}

/** The key line: the action keys as many as the current actor has enabled actions. */
export function keysLine(actions: number): string {
  const act = actions > 0 ? ` · ${actionKeysText(actions)} act` : '';
  return `Keys: n next · u undo · r redo${act} · t timeline · : command · ? help · q quit`;
}

export const KEYS = keysLine(0);

/** A short example line of each kind, with ids and actions of this fight where it has them. */
export interface HelpExamples {
  actor: string;
  action: string;
  target: string;
  own?: string;
}

export function playHelp(x: HelpExamples): string {
  const json = `{"type": "act", "actor": "${x.actor}", …}`;
  return `Commands (one per line):
  next | start | undo | redo | end         the ruleset's and the engine's commands, by name
  act <actor> <action> [key=value …]       e.g. act ${x.actor} ${x.action} target=${x.target}
  <command> [actor] [key=value …]          e.g. ${x.own ?? `defeat ${x.target}`}
  damage <combatant> <amount>              e.g. damage ${x.target} 5 · also heal, defeat, revive
  ${json}${' '.repeat(Math.max(1, 41 - json.length))}any command as JSON
  <n>                                      take the current actor's nth enabled action (the numbers in the list)
  show | actions [id] | timeline | log     look without changing anything
  export <file.yaml|file.json>             save the fight so far as a scenario file
  help | quit
Values after = are read as JSON when they parse (3, true, ["a"], "text"), else as text.
Keys at a terminal: n next · u undo · r redo · the key beside an action in the list takes it (1–9, 0,
then letters) · t timeline · : command line · ? help · q quit`;
}

/** The help with examples no fight has: for an encounter with nobody in it yet. */
export const PLAY_HELP = playHelp({ actor: 'ana', action: 'attack', target: 'orc' });

/**
 * A refusal in the terminal's words: the rules name the web page's buttons ("press Roll initiative",
 * "press Next"); here the same thing is a command to type.
 */
export function inTerminalWords(message: string, ruleset: AnyRuleset): string {
  const controls = new Map<string, string>([
    ['Roll initiative', 'start'],
    ['Next', 'next'],
    ['Undo', 'undo'],
  ]);
  for (const [type, schema] of Object.entries(ruleset.commands)) {
    const { label } = commandLabel(type, schema);
    if (!controls.has(label)) controls.set(label, type);
  }
  const labels = [...controls.keys()].sort((a, b) => b.length - a.length);
  const escaped = labels.map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`\\b([Pp])ress(es)? (${escaped.join('|')})\\b`, 'g');
  return message.replace(pattern, (_m, p: string, es: string | undefined, label: string) => {
    const type = controls.get(label)!;
    return `${p === 'P' ? 'T' : 't'}ype${es ? 's' : ''} ${type}`;
  });
}

/**
 * Splits a line into words at spaces outside "quotes", [lists] and {objects}, so key="quoted text" and
 * key=["a", "b"] stay whole. Quotes are kept: a value after `=` is read as JSON ("3" stays text).
 */
function words(line: string): string[] {
  const out: string[] = [];
  let word = '';
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '\\' && i + 1 < line.length) word += ch + line[++i];
      else {
        if (ch === '"') quoted = false;
        word += ch;
      }
      continue;
    }
    if (/\s/.test(ch) && depth === 0) {
      if (word) out.push(word);
      word = '';
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === '[' || ch === '{') depth++;
    else if ((ch === ']' || ch === '}') && depth > 0) depth--;
    word += ch;
  }
  if (word) out.push(word);
  return out;
}

/** A bare word without the quotes around (or inside) it: "Big Orc" → Big Orc. */
function unquote(word: string): string {
  return word.replace(/"([^"]*)"/g, '$1');
}

/** A value after `=`: JSON when it parses (3, true, ["a"], "text"), else the text as typed. */
function value(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return unquote(text);
  }
}

/** Turns a line of the short syntax (or JSON) into a command, or a message saying how to write it. */
export function parseCommandLine(line: string): Command | string {
  const text = line.trim();
  if (text.startsWith('{')) {
    try {
      const data = JSON.parse(text) as unknown;
      if (typeof data !== 'object' || data === null || Array.isArray(data))
        return 'A JSON command is an object.';
      return data as Command;
    } catch (error) {
      return `That is not valid JSON (${error instanceof Error ? error.message : String(error)}); write a command like {"type": "next"}.`;
    }
  }
  const [type, ...rest] = words(text);
  if (!type) return 'Empty command; type "help" for the list.';
  const command: Command = { type };
  const bare: string[] = [];
  for (const w of rest) {
    const eq = w.indexOf('=');
    if (eq > 0) command[w.slice(0, eq)] = value(w.slice(eq + 1));
    else bare.push(w);
  }
  const slots = COMBATANT_COMMANDS.has(type)
    ? ['combatant', 'amount']
    : type === 'act' || type === 'ready'
      ? ['actor', 'action']
      : ['actor'];
  if (bare.length > slots.length) {
    return `"${bare.slice(slots.length).join(' ')}" is not understood: after "${type}" give ${slots.join(' and ')}, then key=value pairs.`;
  }
  bare.forEach((w, i) => {
    command[slots[i]!] = slots[i] === 'amount' ? value(w) : unquote(w);
  });
  return command;
}

/** Numbers, text and flags of a combatant's ruleset state, flattened: "marksLeft 15 · used.action yes". */
function resources(cs: Json, prefix = ''): string[] {
  if (cs === null || typeof cs !== 'object' || Array.isArray(cs)) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(cs)) {
    const name = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'number' || typeof v === 'string') out.push(`${name} ${v}`);
    else if (typeof v === 'boolean') out.push(`${name} ${v ? 'yes' : 'no'}`);
    else if (v && typeof v === 'object' && !Array.isArray(v)) out.push(...resources(v, name));
  }
  return out;
}

export interface PlayResult {
  out: string;
  ok: boolean;
  quit?: boolean;
  json?: unknown;
}

/** A fight at the terminal: one EncounterLog, fed one line at a time. No I/O but `export`. */
export class PlaySession {
  /** The commands accepted so far (after the scenario's setup), for `export`. */
  readonly commands: ScenarioStep[] = [];
  showTimeline = true;
  /** An action being filled in: its fields are asked one line at a time before it is sent. */
  form: ParamForm | null = null;
  /** What the session says when it opens, beside the status (a finished scenario opened before its end). */
  opening: string | undefined;

  constructor(
    readonly enc: EncounterLog,
    readonly registry: RulesetRegistry,
    readonly base: {
      name: string;
      ruleset: string;
      options: Record<string, Json>;
      seed: number;
      dice?: number[];
      strictDice?: boolean;
      combatants: unknown[];
      actions: unknown[];
    },
  ) {}

  get state(): EncounterState {
    return this.enc.state;
  }

  get ruleset(): AnyRuleset {
    return this.registry[this.state.ruleset]!;
  }

  /** The actor whose actions are shown: the current one, else the first active combatant. */
  focus(): string | undefined {
    return this.state.current ?? this.state.roster.find((id) => this.state.combatants[id]!.active);
  }

  legal(actor: string | undefined = this.focus()): LegalAction[] {
    return actor ? legalActions(this.state, actor, this.registry) : [];
  }

  status(): string {
    const s = this.state;
    const lines: string[] = [];
    const when = s.now
      ? this.ruleset.clock.describe(s, s.now)
      : s.status === 'setup'
        ? 'Not started (type start)'
        : `Round ${s.round}`;
    lines.push(`── ${s.name} · ${this.ruleset.name} · ${when}${s.status === 'ended' ? ' · ended' : ''}`);
    // The round's order: who has acted, who acts, who is to come; then the rest.
    // (The ruleset's steady order while it keeps one: tempo's planning, where a plan moves no one.)
    for (const id of roundOrder(s, this.enc.entries, this.ruleset.present?.steadyOrder?.(s))) {
      const c = s.combatants[id]!;
      const hp = c.hp ? ` HP ${c.hp.current}/${c.hp.max}` : '';
      const res = this.sheet(id).join(' · ');
      lines.push(
        `${s.current === id ? '▶' : ' '} ${c.name} [${id}, ${c.side === 'pc' ? 'PC' : 'NPC'}]${c.active ? '' : ' (out)'}${hp}${res ? `  ${res}` : ''}`,
      );
    }
    const actor = this.focus();
    if (actor) lines.push('', this.actionList(actor));
    if (this.showTimeline && s.status !== 'setup')
      lines.push('', renderTimelineAscii(this.ruleset.timeline(s)));
    return lines.join('\n');
  }

  /** What a combatant's card says, in the ruleset's words ("Initiative 18 · Available action, reaction"). */
  sheet(id: string): string[] {
    const c = this.state.combatants[id];
    if (!c) return [];
    const gauges = this.ruleset.present?.gauges;
    if (!gauges) return resources(c.cs);
    return gauges(this.state, c).map((g) => `${g.label}: ${g.value}`);
  }

  /** Examples for the help, taken from this fight: its actors, an action one has, someone to aim at. */
  help(): string {
    const s = this.state;
    const actor = this.focus();
    if (!actor) return PLAY_HELP;
    const target = s.roster.find((id) => id !== actor) ?? actor;
    const legal = this.legal(actor);
    const action = (legal.find((l) => l.enabled) ?? legal[0])?.action.id ?? 'attack';
    const own = Object.keys(this.ruleset.commands).find(
      (t) => !['start', 'next', 'act', 'plan', 'end'].includes(t),
    );
    return playHelp({ actor, action, target, ...(own ? { own: `${own} ${actor}` } : {}) });
  }

  /** The key line for the current actor's enabled actions. */
  keys(): string {
    const actor = this.state.current;
    return keysLine(actor ? this.legal(actor).filter((l) => l.enabled).length : 0);
  }

  actionList(actor: string): string {
    const c = this.state.combatants[actor];
    if (!c) return `There is no combatant "${actor}" (combatants: ${this.state.roster.join(', ')}).`;
    const lines = [`Actions for ${c.name}:`];
    let n = 0;
    for (const l of this.legal(actor)) {
      const cost = Object.keys(l.cost).length ? describeCost(l.cost) : '';
      const key = l.enabled ? (ACTION_KEYS[n++] ?? String(n)).padStart(2) : ' -';
      const takes = l.params?.length
        ? ` · takes ${l.params.map((p) => `${p.label}${p.required ? '' : ' (optional)'}`).join(', ')}`
        : '';
      lines.push(
        `  ${key} ${l.action.id.padEnd(20)} ${l.action.name}${cost ? ` (${cost})` : ''}${l.enabled ? takes : ` — ${l.reason ?? 'not now'}`}`,
      );
    }
    return lines.join('\n');
  }

  log(count = 20): string {
    const lines: string[] = [];
    const entries = this.enc.entries;
    for (let i = Math.max(0, entries.length - count); i < entries.length; i++) {
      // Each line at its own round and instant (a turn's Mark), not at the fight's now.
      const l = describeEvent(entries[i]!.event, stateAt(this.state, entries, i, this.ruleset), this.ruleset);
      if (l) lines.push(`  ${l}`);
    }
    return lines.join('\n') || '(nothing yet)';
  }

  /** The nth enabled action of the current actor (1-based): the command the ruleset sends for it. */
  nthAction(n: number): { command: Command; legal: LegalAction } | undefined {
    const actor = this.state.current;
    if (!actor) return undefined;
    const l = this.legal(actor).filter((x) => x.enabled)[n - 1];
    if (!l) return undefined;
    return { command: actionCommandOf(this.ruleset.present, this.state, actor, l.action), legal: l };
  }

  /**
   * Takes the nth enabled action of the current actor, as the number keys and number lines do. An action
   * that needs parameters (a casting time, bonus dice) asks for them first, one line each; the optional
   * ones (a target, a roll) are given with the short syntax (`act ana attack target=orc`).
   */
  takeNth(n: number): PlayResult & { prompt?: boolean } {
    const chosen = this.nthAction(n);
    if (chosen) {
      const params = (chosen.legal.params ?? []).filter((p) => p.required);
      if (params.length === 0) return this.execute(chosen.command);
      this.form = new ParamForm(chosen.command, params, chosen.legal.action.name);
      return { ok: true, out: this.form.question(), prompt: true };
    }
    const count = this.state.current ? this.legal(this.state.current).filter((l) => l.enabled).length : 0;
    const out =
      count === 0
        ? `There is no numbered action now: ${this.state.current ? 'the current actor has no enabled action; send "next"' : this.state.status === 'setup' ? 'the fight has not started; send "start"' : 'nobody is acting'}.`
        : `There is no enabled action ${n} now; the current actor's actions are numbered 1 to ${count}.`;
    return { ok: false, out, json: { ok: false, error: out } };
  }

  /**
   * One key pressed at the terminal: n next, u undo, r redo, an action's key (1–9, 0, then letters:
   * `ACTION_KEYS`) that enabled action, t timeline
   * on/off, ? help, q quit, : a command line (`prompt`). The terminal loop only draws the result.
   */
  key(text: string): PlayResult & { prompt?: boolean } {
    switch (text) {
      case 'n':
        return this.handle('next');
      case 'u':
        return this.handle('undo');
      case 'r':
        return this.handle('redo');
      case 't':
        this.showTimeline = !this.showTimeline;
        return { ok: true, out: `Timeline ${this.showTimeline ? 'on' : 'off'}.` };
      case '?':
      case 'h':
        return { ok: true, out: this.help() };
      case 'q':
        return { ok: true, out: '', quit: true };
      case ':':
        return { ok: true, out: '', prompt: true };
    }
    const nth = ACTION_KEYS.indexOf(text);
    if (nth >= 0) return this.takeNth(nth + 1);
    return { ok: false, out: `The key "${text}" does nothing here. ${this.keys()}` };
  }

  execute(command: Command): PlayResult {
    const r = this.enc.execute(command);
    if (isRejection(r)) {
      return {
        ok: false,
        out: `refused: ${inTerminalWords(r.message, this.ruleset)} [${r.code}]`,
        json: { ok: false, command, rejection: r },
      };
    }
    this.commands.push({ command: command as ScenarioStep['command'] });
    const entries = this.enc.entries;
    const from = entries.length - r.length;
    const lines = r
      .map((e, i) =>
        describeEvent(e.event, stateAt(this.state, entries, from + i, this.ruleset), this.ruleset),
      )
      .filter((l): l is string => l !== null)
      .map((l) => `  ${l}`);
    return {
      ok: true,
      out: lines.join('\n') || '  (done)',
      json: {
        ok: true,
        command,
        log: lines.map((l) => l.trim()),
        round: this.state.round,
        current: this.state.current,
        status: this.state.status,
        legal: this.state.current
          ? this.legal(this.state.current).map((l) => ({
              action: l.action.id,
              enabled: l.enabled,
              cost: l.cost,
              ...(l.reason ? { reason: l.reason } : {}),
            }))
          : [],
      },
    };
  }

  /** One line of input: an answer to the form being filled, a look-only word, or a command to decide. */
  handle(line: string): PlayResult & { prompt?: boolean } {
    if (this.form) return this.fill(line);
    const text = line.trim();
    if (text === '' || text.startsWith('#')) return { ok: true, out: '' };
    const [head, ...rest] = words(text).map(unquote);
    if (head && /^\d+$/.test(head) && rest.length === 0) return this.takeNth(Number(head));
    switch (head) {
      case 'help':
      case '?':
        return { ok: true, out: this.help() };
      case 'quit':
      case 'exit':
        return { ok: true, out: '', quit: true };
      case 'show':
      case 'status':
        return { ok: true, out: this.status(), json: { ok: true, state: this.state } };
      case 'actions': {
        const actor = rest[0] ?? this.focus();
        if (!actor) return { ok: true, out: 'No combatants yet.' };
        return { ok: true, out: this.actionList(actor), json: { ok: true, actor, legal: this.legal(actor) } };
      }
      case 'timeline':
        return { ok: true, out: renderTimelineAscii(this.ruleset.timeline(this.state)) };
      case 'log':
        return { ok: true, out: this.log() };
      case 'export': {
        const file = rest[0];
        if (!file) return { ok: false, out: 'Say where to save: export fight.yaml (or .json).' };
        try {
          writeOutput(file, scenarioText(this.scenario(), file));
        } catch (error) {
          return {
            ok: false,
            out: error instanceof Error ? error.message : String(error),
          };
        }
        return { ok: true, out: `Saved ${this.commands.length} commands to ${file}.` };
      }
    }
    const command = parseCommandLine(text);
    if (typeof command === 'string') return { ok: false, out: command, json: { ok: false, error: command } };
    return this.execute(command);
  }

  /** One answer to the form: the next question, or the action sent once every field is asked. */
  private fill(line: string): PlayResult & { prompt?: boolean } {
    const form = this.form!;
    if (line.trim() === 'cancel') {
      this.form = null;
      return { ok: true, out: `${form.title}: cancelled.` };
    }
    const problem = form.answer(line);
    if (problem) return { ok: false, out: `${problem}\n${form.question()}`, prompt: true };
    if (!form.done) return { ok: true, out: form.question(), prompt: true };
    this.form = null;
    return this.execute(form.command);
  }

  /** The fight so far as a scenario file that replays to this state. */
  scenario() {
    return toScenario(this.base, this.commands, this.state);
  }
}

export interface PlayStart {
  scenario?: string;
  ruleset?: string;
  seed?: number;
}

/** Opens a session: a scenario replayed up to its end, or an empty encounter of a ruleset. */
export function openSession(start: PlayStart, registry: RulesetRegistry): PlaySession {
  if (start.scenario) {
    const scenario = loadScenario(start.scenario);
    if (!Object.hasOwn(registry, scenario.ruleset)) {
      throw new CliError(
        `${start.scenario} uses the ruleset "${scenario.ruleset}", which is not installed. Installed: ${Object.keys(registry).join(', ')}.`,
        EXIT.unreadable,
      );
    }
    let result = runScenario(scenario, registry, scenario.name);
    if (isRejection(result)) throw new CliError(`${start.scenario}: ${result.message}`, EXIT.refused);
    // A scenario that ends the fight opens at the moment before its end: the fight's last live moment,
    // with its actions to take, not an ended fight where every action is greyed out.
    let opening: string | undefined;
    const ended = result.encounter.state.status === 'ended';
    const endAt = result.steps.findLastIndex((st) => !st.rejection && st.command.type === 'end');
    if (ended && endAt >= 0) {
      const { expect: _final, ...rest } = scenario;
      const before = { ...rest, commands: scenario.commands.slice(0, result.steps[endAt]!.index) };
      const replayed = runScenario(before, registry, scenario.name);
      if (!isRejection(replayed)) {
        result = replayed;
        opening = `${start.scenario} ends the fight with its last command; it opens at the moment before the end, so play goes on from there. Type end to end the fight.`;
      }
    }
    const session = new PlaySession(result.encounter, registry, {
      name: scenario.name,
      ruleset: scenario.ruleset,
      options: scenario.options,
      seed: scenario.seed,
      ...(scenario.dice ? { dice: scenario.dice } : {}),
      ...(scenario.strictDice ? { strictDice: true } : {}),
      combatants: scenario.combatants,
      actions: scenario.actions,
    });
    for (const step of result.steps) {
      if (step.rejection) continue;
      const { command, by } = scenario.commands[step.index]!;
      session.commands.push(by ? { command, by } : { command });
    }
    session.opening = opening;
    return session;
  }
  // The registry's first ruleset (the reference one) unless another is named.
  const id = start.ruleset ?? Object.keys(registry)[0] ?? '';
  if (!Object.hasOwn(registry, id)) {
    throw new CliError(
      `There is no ruleset "${id}". Installed: ${Object.keys(registry).join(', ')}.`,
      EXIT.refused,
    );
  }
  const seed = start.seed ?? 1;
  const enc = EncounterLog.create(
    { id: 'Play', name: 'Play', ruleset: id, dice: seededDice(seed) },
    registry,
  );
  if (isRejection(enc)) throw new CliError(enc.message, EXIT.refused);
  return new PlaySession(enc, registry, {
    name: 'Play',
    ruleset: id,
    options: {},
    seed,
    combatants: [],
    actions: [],
  });
}
