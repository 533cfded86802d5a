import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  type AnyRuleset,
  type Command,
  coreCommandSchemas,
  describeEvent,
  EncounterLog,
  type EncounterState,
  isRejection,
  type JsonSchemaNode,
  jsonSchemaOf,
  legalActions,
  type Param,
  parseScenario,
  runScenario,
  seededDice,
} from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { z } from 'zod';
import { rulesets } from './index.js';
import { scenarioFiles } from './testing/harness.js';

/**
 * What a person reads — refusals, the reasons of greyed-out actions, log lines, the phase, panels and the
 * words of forms — never names an internal field, option or command, nor cites a rules text by its file
 * number: it says what the GM or the player clicks or enters ("press Next", "enter the
 * Bonus dice"). Checked on every worked example and on random plays.
 */

/** Every ruleset's words are checked, a new one's too. */
const CHECKED = Object.keys(rulesets).sort();

const examples = fileURLToPath(new URL('../../../examples', import.meta.url));

/** Every property name anywhere in a schema (nested objects, unions, arrays, maps). */
function propertyNames(node: JsonSchemaNode, into: Set<string>, depth = 0): void {
  if (depth > 12) return;
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    into.add(name);
    propertyNames(child, into, depth + 1);
  }
  for (const alt of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) propertyNames(alt, into, depth + 1);
  if (node.items) propertyNames(node.items, into, depth + 1);
  if (node.additionalProperties && typeof node.additionalProperties === 'object')
    propertyNames(node.additionalProperties, into, depth + 1);
}

/**
 * The texts are filed as 000–004 (seeds README): code comments cite them so, but at the table that number
 * means nothing, so what a person reads names "the rules" and quotes them ("1,000" is a number, not one).
 */
const CITATION = { pattern: /(?<![\d,.])00[0-4](?!\d)/, what: 'a rules text cited by its file number' };

/** The words a person must never read for a ruleset, each with why. */
function forbidden(ruleset: AnyRuleset, state: EncounterState): Array<{ pattern: RegExp; what: string }> {
  const names = new Set<string>();
  const schemas: z.ZodType[] = [
    ...Object.values(ruleset.commands),
    ...Object.values(coreCommandSchemas),
    ruleset.optionsSchema,
    ruleset.statsSchema,
  ];
  for (const schema of schemas) propertyNames(jsonSchemaOf(schema), names);
  const out: Array<{ pattern: RegExp; what: string }> = [];
  for (const name of names) {
    if (!/[a-z][A-Z]/.test(name)) continue;
    out.push({ pattern: new RegExp(`\\b${name}\\b`), what: `the field name "${name}"` });
  }
  // An action's id where its name belongs ("basic-attack" for Basic attack).
  for (const action of ruleset.catalog(state)) {
    if (!action.id.includes('-') || action.id === action.name) continue;
    out.push({
      pattern: new RegExp(`(?<![\\w-])${action.id}(?![\\w-])`),
      what: `the action id "${action.id}"`,
    });
  }
  out.push({ pattern: /send "/, what: 'a command to send' });
  out.push({ pattern: /: (true|false)\b/, what: 'a field set to true or false' });
  out.push(CITATION);
  return out;
}

function offences(ruleset: AnyRuleset, state: EncounterState, texts: Iterable<string>): string[] {
  const words = forbidden(ruleset, state);
  const out = new Set<string>();
  for (const text of texts) {
    for (const { pattern, what } of words) if (pattern.test(text)) out.add(`${what} in: ${text}`);
  }
  return [...out];
}

function created(rulesetId: string, seed: number): EncounterLog {
  const enc = EncounterLog.create(
    { id: 'w', name: 'Words', ruleset: rulesetId, dice: seededDice(seed) },
    rulesets,
  );
  if (isRejection(enc)) throw new Error(enc.message);
  return enc;
}

/** What the pages show beside the palette now: the phase, and each combatant's panels (title, help, items). */
function screenTexts(ruleset: AnyRuleset, state: EncounterState): string[] {
  const out: string[] = [];
  const phase = ruleset.present?.phase?.(state);
  if (phase) out.push(phase);
  for (const id of state.roster) {
    const c = state.combatants[id];
    if (!c) continue;
    for (const panel of ruleset.present?.panels?.(state, c) ?? []) {
      out.push(panel.title, ...(panel.help ? [panel.help] : []));
      for (const item of panel.items ?? []) out.push(item.label, ...(item.remove ? [item.remove.label] : []));
    }
  }
  return out;
}

/** The words of a schema's forms: every label, title, description and choice, nested ones too. */
function formTexts(node: JsonSchemaNode, into: string[], depth = 0): string[] {
  if (depth > 12) return into;
  for (const text of [node.label, node.title, node.description, node.own?.label, node.own?.help])
    if (text) into.push(text);
  into.push(...Object.values(node.choices ?? {}));
  for (const child of Object.values(node.properties ?? {})) formTexts(child, into, depth + 1);
  for (const alt of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) formTexts(alt, into, depth + 1);
  if (node.items) formTexts(node.items, into, depth + 1);
  if (node.additionalProperties && typeof node.additionalProperties === 'object')
    formTexts(node.additionalProperties, into, depth + 1);
  return into;
}

/** The reasons every combatant's greyed-out actions give now. */
function reasons(ruleset: AnyRuleset, state: EncounterState): string[] {
  const out: string[] = [];
  for (const id of state.roster) {
    for (const l of ruleset.legalActions(state, id)) if (l.reason) out.push(l.reason);
  }
  return out;
}

/** A random value for a form field: what a person could enter, or nothing at all. */
function valueFor(p: Param, pick: number, ids: string[]): unknown {
  switch (p.type) {
    case 'integer':
    case 'number': {
      const min = p.min ?? 0;
      const max = Math.min(p.max ?? min + 10, min + 30);
      return min + (pick % (max - min + 1));
    }
    case 'boolean':
      return pick % 2 === 0;
    case 'dice':
      return ['1d6', '2d6+1', '3'][pick % 3];
    case 'choice':
      // A choice with nothing to choose from (no weapons on the sheet) is left empty.
      return p.options?.length ? p.options[pick % p.options.length]!.value : undefined;
    case 'combatant':
      return p.options?.length ? p.options[pick % p.options.length]!.value : ids[pick % ids.length];
    case 'text':
      return 'word';
    default:
      return undefined;
  }
}

type Step =
  | { kind: 'legal'; pick: number; fill: number; values: number[] }
  | { kind: 'own'; type: number; actor: number; action: number; fill: number; values: number[] }
  | { kind: 'next' };

const values = fc.array(fc.nat(1000), { minLength: 12, maxLength: 12 });
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('legal' as const),
      pick: fc.nat(1000),
      fill: fc.nat(3),
      values,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('own' as const),
      type: fc.nat(1000),
      actor: fc.nat(3),
      action: fc.nat(1000),
      fill: fc.nat(3),
      values,
    }),
  },
  { weight: 4, arbitrary: fc.constant({ kind: 'next' as const }) },
);

/** Fills some of the fields (fill 0: none, 3: all, else each three times in four), with random values. */
function filled(
  params: readonly Param[],
  fill: number,
  vals: number[],
  ids: string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  params.forEach((p, i) => {
    if (p.name === 'actor' || p.name === 'action') return;
    const v = vals[i % vals.length]!;
    if (fill === 0 || (fill < 3 && v % 4 === 0)) return;
    const value = valueFor(p, v, ids);
    if (value !== undefined) out[p.name] = value;
  });
  return out;
}

function commandFor(enc: EncounterLog, step: Step): unknown {
  const state = enc.state;
  const ruleset = rulesets[state.ruleset]!;
  const ids = state.roster;
  if (step.kind === 'next') return { type: 'next' };
  if (state.status === 'setup') return { type: 'start' };
  if (step.kind === 'legal') {
    const actor = state.current ?? ids[step.pick % ids.length];
    if (!actor) return { type: 'next' };
    // As the palette offers them: enabled, with their fields and the choices for this actor.
    const legal = legalActions(state, actor, rulesets).filter((l) => l.enabled);
    if (legal.length === 0) return { type: 'next' };
    const chosen = legal[step.pick % legal.length]!;
    const params = chosen.params ?? [];
    const type = !state.current && 'plan' in ruleset.commands ? 'plan' : 'act';
    return { type, actor, action: chosen.action.id, ...filled(params, step.fill, step.values, ids) };
  }
  const types = Object.keys(ruleset.commands);
  const type = types[step.type % types.length]!;
  const catalog = ruleset.catalog(state);
  const who = ids[step.actor % ids.length]!;
  const schema = ruleset.commands[type]!;
  const props = Object.entries(jsonSchemaOf(schema).properties ?? {});
  const params: Param[] = props.map(([name]) => ({ name, label: name, type: 'text', required: false }));
  const command: Record<string, unknown> = { type, actor: who, combatant: who };
  if (catalog.length) command.action = catalog[step.action % catalog.length]!.id;
  command.target = ids[(step.actor + 1) % ids.length];
  // Numbers and flags where the schema has them, so a command gets past validation to the rules.
  for (const [name, node] of props) {
    if (['actor', 'combatant', 'action', 'target'].includes(name)) continue;
    const i = params.findIndex((p) => p.name === name);
    const v = step.values[i % step.values.length]!;
    if (step.fill === 0 || v % 3 >= step.fill) continue;
    if (node.type === 'integer' || node.type === 'number') command[name] = (node.minimum ?? 0) + (v % 4);
    else if (node.type === 'boolean') command[name] = v % 2 === 0;
    else if (node.enum?.length) command[name] = node.enum[v % node.enum.length];
  }
  return command;
}

/** The command of a palette step with one required field of its action left out, if it has any. */
function withoutRequired(enc: EncounterLog, command: Command, step: Step): Command | undefined {
  if (step.kind !== 'legal' || typeof command.actor !== 'string' || typeof command.action !== 'string')
    return undefined;
  const legal = legalActions(enc.state, command.actor, rulesets).find((l) => l.action.id === command.action);
  const required = (legal?.params ?? []).filter((p) => p.required && Object.hasOwn(command, p.name));
  if (!required.length) return undefined;
  const { [required[step.pick % required.length]!.name]: _left, ...rest } = command;
  return rest as Command;
}

function playWorkedExamples(ruleset: AnyRuleset): string[] {
  const texts: string[] = [];
  for (const file of scenarioFiles(`${examples}/${ruleset.id}`)) {
    const scenario = parseScenario(parse(readFileSync(file, 'utf8')));
    if (isRejection(scenario)) throw new Error(scenario.message);
    const played = runScenario(scenario, rulesets);
    if (isRejection(played)) throw new Error(played.message);
    for (const step of played.steps) {
      if (step.rejection) texts.push(step.rejection.message);
      texts.push(...step.lines);
      texts.push(...reasons(ruleset, played.encounter.state));
    }
    texts.push(...screenTexts(ruleset, played.encounter.state));
    for (const { event } of played.encounter.entries) {
      const line = describeEvent(event, played.encounter.state, ruleset);
      if (line) texts.push(line);
    }
  }
  return texts;
}

describe.each(CHECKED)('words a person reads name no internal field or command: %s', (rulesetId) => {
  const ruleset = rulesets[rulesetId]!;

  // A form's words are also read by whoever writes a scenario file, who types the fields' and actions' ids
  // ("the sheet's loadStamina", {"melee-attack": 3}): only the citation is held against them.
  it("in its forms (the labels, descriptions and choices of its commands', options' and stats' fields): no rules text cited by its file number", () => {
    const schemas = [...Object.values(ruleset.commands), ruleset.optionsSchema, ruleset.statsSchema];
    const texts = schemas.flatMap((schema) => formTexts(jsonSchemaOf(schema), []));
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.filter((t) => CITATION.pattern.test(t))).toEqual([]);
  });

  it('in the refusals, reasons, log lines, phase and panels of its worked examples', () => {
    const state = created(rulesetId, 1).state;
    expect(offences(ruleset, state, playWorkedExamples(ruleset))).toEqual([]);
  });

  it('in the refusals, reasons, log lines, phase and panels of random plays', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 50 }), fc.integer(), (steps, seed) => {
        const enc = created(rulesetId, seed);
        for (const combatant of [
          { id: 'ana', name: 'Ana', side: 'pc', hp: 20 },
          { id: 'bren', name: 'Bren', side: 'pc', hp: 20 },
          { id: 'orc', name: 'Orc', side: 'npc', hp: 15 },
        ]) {
          const r = enc.execute({ type: 'add-combatant', combatant });
          if (isRejection(r)) throw new Error(r.message);
        }
        const texts: string[] = [];
        for (const step of steps) {
          const command = commandFor(enc, step) as Command;
          // The same action with one of its required fields left empty: refused by the field's label.
          const probe = withoutRequired(enc, command, step);
          if (probe) {
            const p = enc.execute(probe);
            if (isRejection(p)) texts.push(p.message);
            else enc.execute({ type: 'undo' });
          }
          const r = enc.execute(command);
          if (isRejection(r)) texts.push(r.message);
          else {
            for (const e of r) {
              const line = describeEvent(e.event, enc.state, ruleset);
              if (line) texts.push(line);
            }
          }
          texts.push(...reasons(ruleset, enc.state), ...screenTexts(ruleset, enc.state));
        }
        const found = offences(ruleset, enc.state, texts);
        if (found.length) throw new Error(found.slice(0, 5).join('\n'));
      }),
      { numRuns: 60 },
    );
  });
});
