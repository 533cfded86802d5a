import {
  type AnyRuleset,
  type Command,
  coreCommandSchemas,
  createEncounter,
  type EncounterState,
  isRejection,
  type PathStep,
  refPaths,
  seededDice,
} from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it } from 'vitest';
import { authorize, defaultPlayerCommands } from './links.js';
import type { LinkRecord } from './storage/storage.js';

function stateOf(ruleset: AnyRuleset): EncounterState {
  const created = createEncounter({ id: 'e', name: 'e', ruleset: ruleset.id, dice: seededDice(1) }, rulesets);
  if (isRejection(created)) throw new Error(created.message);
  const state = created.state as unknown as EncounterState;
  const c = (id: string, side: 'pc' | 'npc') => ({
    id,
    name: id.toUpperCase(),
    side,
    hidden: false,
    stats: {},
    cs: null,
    turnsStarted: 0,
    turnsEnded: 0,
    active: true,
  });
  return {
    ...state,
    status: 'running',
    current: 'mine',
    combatants: { mine: c('mine', 'pc'), theirs: c('theirs', 'npc') },
    roster: ['mine', 'theirs'],
  };
}

/** A player link for `mine` that the GM allowed every command. */
function linkFor(ruleset: AnyRuleset): LinkRecord {
  return {
    hash: 'h',
    encounterId: 'e',
    role: 'player',
    combatants: ['mine'],
    allowed: [...Object.keys(ruleset.commands), ...Object.keys(coreCommandSchemas)],
    label: 'Mine',
    createdAt: '2026-01-01T00:00:00Z',
  };
}

/** A value with `id` placed where the path says (a field, an item of a list, a key or a value of a map). */
function place(path: readonly PathStep[], id: string): unknown {
  if (path.length === 0) return id;
  const [step, ...rest] = path;
  if (typeof step === 'string') return { [step]: place(rest, id) };
  if (step!.each === 'item') return [place(rest, id)];
  if (step!.each === 'key') return { [id]: 1 };
  return { x: place(rest, id) };
}

describe('authorization: a player link acts only for its own characters, in every field a command declares', () => {
  for (const ruleset of Object.values(rulesets)) {
    const state = stateOf(ruleset);
    const link = linkFor(ruleset);
    const schemas = { ...coreCommandSchemas, ...ruleset.commands };
    for (const [type, schema] of Object.entries(schemas)) {
      const actorPaths = refPaths(schema).filter((p) => p.role === 'actor');
      for (const { path } of actorPaths) {
        const where = path.map((s) => (typeof s === 'string' ? s : `[${s.each}]`)).join('.');
        it(`${ruleset.id}: "${type}" naming another's character at ${where} is refused`, () => {
          const command = { ...(place(path, 'theirs') as object), type } as Command;
          if (type !== 'next' && !('actor' in command) && Object.hasOwn(schema.shape ?? {}, 'actor')) {
            command.actor = 'mine';
          }
          const refused = authorize(link, command, state, ruleset);
          expect(refused?.code).toBe('link/not-your-character');
          expect(refused?.message).toContain('THEIRS');
          // The same command for the player's own character passes this check.
          const own = { ...(place(path, 'mine') as object), type } as Command;
          if (!('actor' in own) && Object.hasOwn(schema.shape ?? {}, 'actor')) own.actor = 'mine';
          expect(authorize(link, own, state, ruleset)?.code).not.toBe('link/not-your-character');
        });
      }
      if (Object.hasOwn(schema.shape ?? {}, 'actor')) {
        it(`${ruleset.id}: "${type}" declares its actor`, () => {
          expect(actorPaths.map((p) => p.path.join('.'))).toContain('actor');
        });
      }
    }
  }

  it("stamina: a player's next cannot rewrite an NPC's initiative", () => {
    const ruleset = rulesets.stamina!;
    const command = { type: 'next', initiative: { theirs: 30 } } as Command;
    expect(authorize(linkFor(ruleset), command, stateOf(ruleset), ruleset)?.code).toBe(
      'link/not-your-character',
    );
  });

  it("opend6: a player's next cannot spend another character's Character Points", () => {
    const ruleset = rulesets.opend6!;
    const command = { type: 'next', characterPoints: { theirs: 2 } } as Command;
    expect(authorize(linkFor(ruleset), command, stateOf(ruleset), ruleset)?.code).toBe(
      'link/not-your-character',
    );
  });

  it('a command that acts for nobody in particular is a player’s only on their turn', () => {
    const ruleset = rulesets.classic!;
    const state = { ...stateOf(ruleset), current: 'theirs' };
    expect(authorize(linkFor(ruleset), { type: 'next' }, state, ruleset)?.code).toBe('link/not-your-turn');
  });

  it("the GM's commands are left out of a player link by default", () => {
    expect(defaultPlayerCommands(rulesets.classic!)).not.toContain('set-initiative');
    expect(defaultPlayerCommands(rulesets.stamina!)).not.toContain('adjust');
    expect(defaultPlayerCommands(rulesets.tempo!)).not.toContain('force-exertion');
    expect(defaultPlayerCommands(rulesets.classic!)).toContain('delay');
  });
});

describe("a player's own conditions, where the GM allows them (issue 33)", () => {
  const ruleset = rulesets.classic!;
  const withEffect = (target: string): EncounterState =>
    ({
      ...stateOf(ruleset),
      current: 'theirs',
      effects: [{ id: 'fx', name: 'Prone', target, duration: { kind: 'until-removed' } }],
    }) as unknown as EncounterState;
  const link = { ...linkFor(ruleset), allowed: ['act', 'add-effect', 'remove-effect'] };

  it("adds and removes on the player's own character, on another's turn too", () => {
    const state = withEffect('mine');
    const add = { type: 'add-effect', target: 'mine', name: 'Blessed' } as Command;
    expect(authorize(link, add, state, ruleset)).toBeUndefined();
    expect(
      authorize(link, { type: 'remove-effect', effect: 'fx' } as Command, state, ruleset),
    ).toBeUndefined();
  });

  it("refuses another's character in words", () => {
    const add = authorize(
      link,
      { type: 'add-effect', target: 'theirs', name: 'Blessed' } as Command,
      withEffect('theirs'),
      ruleset,
    );
    expect(add?.code).toBe('link/not-your-character');
    expect(add?.message).toContain('ask the GM to put Blessed on THEIRS');
    const remove = authorize(
      link,
      { type: 'remove-effect', effect: 'fx' } as Command,
      withEffect('theirs'),
      ruleset,
    );
    expect(remove?.message).toContain('That condition is on THEIRS');
  });

  it('is off by default: a link the GM did not allow them is refused', () => {
    const plain = { ...linkFor(ruleset), allowed: defaultPlayerCommands(ruleset) };
    const add = { type: 'add-effect', target: 'mine', name: 'Blessed' } as Command;
    expect(authorize(plain, add, withEffect('mine'), ruleset)?.code).toBe('link/not-allowed');
  });
});
