import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  type AnyRuleset,
  actionCommandOf,
  actionParams,
  commandForms,
  createEncounter,
  type EncounterLog,
  type EncounterState,
  type EngineEvent,
  eventSchema,
  isRejection,
  jsonSchemaOf,
  parseScenario,
  runScenario,
  seededDice,
} from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { rulesets } from './index.js';
import { encounter, must, scenarioFiles } from './testing/harness.js';
import { fresh, play, stepArb } from './testing/random-play.js';

const examples = fileURLToPath(new URL('../../../examples', import.meta.url));

/** Each of a ruleset's worked examples, played. */
function played(id: string): EncounterLog[] {
  const out: EncounterLog[] = [];
  for (const file of scenarioFiles(`${examples}/${id}`)) {
    const scenario = parseScenario(parse(readFileSync(file, 'utf8')));
    if (isRejection(scenario)) throw new Error(scenario.message);
    const played = runScenario(scenario, rulesets);
    if (isRejection(played)) throw new Error(played.message);
    out.push(played.encounter);
  }
  return out;
}

/** The event fits the schema its ruleset (or the engine) declares for its type. */
function expectDeclared(ruleset: AnyRuleset, event: EngineEvent): void {
  const schema = eventSchema(ruleset, event.type);
  // Redaction knows whom an event names only from its declaration: an undeclared one is a test failure.
  if (!schema)
    throw new Error(`${ruleset.id} emits "${event.type}", which neither it nor the engine declares`);
  const { type: _t, ...fields } = event;
  const parsed = schema.safeParse(fields);
  expect(parsed.success, `${event.type}: ${parsed.error?.message}`).toBe(true);
}

/** The state at the end of each of a ruleset's worked examples. */
const playedStates = (id: string): EncounterState[] => played(id).map((e) => e.state);

describe('the SDK declarations of every ruleset', () => {
  for (const ruleset of Object.values(rulesets)) {
    const created = createEncounter(
      { id: 'e', name: 'e', ruleset: ruleset.id, dice: seededDice(1) },
      rulesets,
    );
    if (isRejection(created)) throw new Error(created.message);
    const state = created.state as unknown as EncounterState;

    it(`${ruleset.id}: every parameter an action names is a field of the command a palette click sends`, () => {
      for (const action of ruleset.catalog(state)) {
        const names = (action.params ?? []).map((p) => (typeof p === 'string' ? p : p.name));
        const command = actionCommandOf(ruleset.present, state, '', action).type;
        expect(
          actionParams(ruleset, action, command).map((p) => p.name),
          action.id,
        ).toEqual(names);
      }
    });

    it(`${ruleset.id}: every command has a form with a label and no raw JSON field`, () => {
      for (const form of commandForms(ruleset)) {
        expect(form.label.length, form.type).toBeGreaterThan(0);
        const json = form.params.filter((p) => p.type === 'json').map((p) => p.name);
        expect(json, `${form.type}: fields with no description`).toEqual([]);
      }
    });

    it(`${ruleset.id}: every command and every field says in words what it is`, () => {
      for (const [type, schema] of Object.entries(ruleset.commands)) {
        const node = jsonSchemaOf(schema);
        if (type !== 'act') {
          expect(node.label, `${type}: a label`).toBeTruthy();
          expect(node.description, `${type}: what it does`).toBeTruthy();
        }
        for (const [name, raw] of Object.entries(node.properties ?? {})) {
          const field = raw.anyOf?.find((a) => a.type !== 'null') ?? raw;
          expect(raw.label ?? field.label, `${type}.${name}: a label`).toBeTruthy();
        }
      }
    });

    it(`${ruleset.id}: every event of its worked examples fits its declaration`, () => {
      for (const enc of played(ruleset.id))
        for (const { event } of enc.entries) expectDeclared(ruleset, event);
    });

    it(`${ruleset.id}: every event of random play fits its declaration`, () => {
      fc.assert(
        fc.property(fc.array(stepArb, { maxLength: 60 }), fc.integer(), (steps, seed) => {
          const enc = fresh(ruleset.id, seed);
          play(enc, steps);
          for (const { event } of enc.entries) expectDeclared(ruleset, event);
        }),
        { numRuns: 30 },
      );
    });

    it(`${ruleset.id}: presents every combatant of its worked examples with gauges a person can read`, () => {
      const states = playedStates(ruleset.id);
      expect(states.length).toBeGreaterThan(0);
      for (const s of states) {
        for (const c of Object.values(s.combatants)) {
          const gauges = ruleset.present?.gauges?.(s, c) ?? [];
          expect(gauges.length, c.id).toBeGreaterThan(0);
          for (const g of gauges) {
            expect(g.label.length).toBeGreaterThan(0);
            expect(g.value).not.toMatch(/undefined|NaN|null|\[object/);
            if (g.fill !== undefined) expect(g.fill >= 0 && g.fill <= 1, `${g.label} ${g.fill}`).toBe(true);
          }
          for (const panel of ruleset.present?.panels?.(s, c) ?? []) {
            if (panel.command) expect(commandForms(ruleset).map((f) => f.type)).toContain(panel.command);
          }
        }
      }
    });
  }
});

describe('presentation hooks name the phase and the palette command', () => {
  it('tempo: planning is a phase, and a palette click plans the action', () => {
    const enc = encounter({
      ruleset: 'tempo',
      combatants: [{ id: 'ana', name: 'Ana', side: 'pc' }],
    });
    must(enc, { type: 'start' });
    const tempo = rulesets.tempo!;
    expect(tempo.present?.phase?.(enc.state)).toBe('Each character chooses 2 actions in secret');
    const strike = tempo.catalog(enc.state).find((a) => a.kind !== 'reaction')!;
    expect(actionCommandOf(tempo.present, enc.state, 'ana', strike)).toMatchObject({
      type: 'plan',
      action: strike.id,
    });
  });
  it('classic: no phase, and a palette click acts', () => {
    const enc = encounter({ ruleset: 'classic', combatants: [{ id: 'ana', name: 'Ana', side: 'pc' }] });
    must(enc, { type: 'start' });
    const classic = rulesets.classic!;
    expect(classic.present?.phase?.(enc.state) ?? null).toBeNull();
    const attack = classic.catalog(enc.state)[0]!;
    expect(actionCommandOf(classic.present, enc.state, 'ana', attack)).toEqual({
      type: 'act',
      actor: 'ana',
      action: attack.id,
    });
  });
});
