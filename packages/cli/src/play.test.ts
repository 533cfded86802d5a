import { fileURLToPath } from 'node:url';
import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it } from 'vitest';
import { openSession, parseCommandLine } from './play.js';

const duel = fileURLToPath(new URL('../../../examples/simulate/classic-duel.yaml', import.meta.url));

describe('play: the short command syntax', () => {
  it('reads a value after = as JSON when it parses (lists, objects, quoted text), else as text', () => {
    expect(parseCommandLine('act ana attack targets=["orc", "wolf"]')).toEqual({
      type: 'act',
      actor: 'ana',
      action: 'attack',
      targets: ['orc', 'wolf'],
    });
    expect(parseCommandLine('add-combatant combatant={"id": "cat", "name": "Big Cat"}')).toEqual({
      type: 'add-combatant',
      combatant: { id: 'cat', name: 'Big Cat' },
    });
    expect(parseCommandLine('ready ana attack trigger="orc moves" n="3" units=3 note=[orc]')).toEqual({
      type: 'ready',
      actor: 'ana',
      action: 'attack',
      trigger: 'orc moves',
      n: '3',
      units: 3,
      note: '[orc]',
    });
    expect(parseCommandLine('damage "orc" 5')).toEqual({ type: 'damage', combatant: 'orc', amount: 5 });
  });
});

describe('play: the keyboard (the keys the terminal loop passes to PlaySession.key)', () => {
  it('n next, 1–9 the numbered enabled action, u undo, r redo, t timeline, ? help, : prompt, q quit', () => {
    const session = openSession({ scenario: duel }, rulesets);
    expect(session.state.current).toBe('ana');
    // 1 is Ana's first enabled action: attack.
    expect(session.key('1')).toMatchObject({ ok: true, out: '  Ana: Attack.' });
    expect(session.key('n').out).toContain("Orc's turn.");
    expect(session.state.current).toBe('orc');
    expect(session.key('u').out).toContain('Undo');
    expect(session.state.current).toBe('ana');
    expect(session.key('r').out).toContain('Redo');
    expect(session.state.current).toBe('orc');
    expect(session.status()).toContain('legend:');
    expect(session.key('t').out).toBe('Timeline off.');
    expect(session.status()).not.toContain('legend:');
    expect(session.key('?').out).toContain('Commands (one per line)');
    expect(session.key(':')).toMatchObject({ prompt: true });
    expect(session.key('z')).toMatchObject({ ok: false });
    expect(session.key('z').out).toContain('Keys: n next');
    expect(session.key('q')).toMatchObject({ quit: true });
  });

  it('a number line takes any numbered action, also the 10th and beyond; one too many says how many there are', () => {
    const session = openSession({ scenario: duel }, rulesets);
    const enabled = session.legal('ana').filter((l) => l.enabled);
    expect(enabled.length).toBeGreaterThan(9);
    const beyond = session.handle(String(enabled.length + 1));
    expect(beyond.ok).toBe(false);
    expect(beyond.out).toContain(`numbered 1 to ${enabled.length}`);
    expect(session.handle(String(enabled.length))).toMatchObject({ ok: true });
    expect(session.commands.at(-1)?.command).toEqual({
      type: 'act',
      actor: 'ana',
      action: enabled.at(-1)!.action.id,
    });
  });
});

describe('play: an action that needs parameters asks for them, from the ruleset’s declarations', () => {
  it('asks each required field with its label and choices, checks bounds, and sends the action filled', () => {
    const session = openSession({ ruleset: 'classic' }, rulesets);
    session.handle(
      'add-combatant combatant={"id": "ana", "name": "Ana", "side": "pc", "stats": {"initiative": 5}}',
    );
    session.handle('add-combatant combatant={"id": "orc", "name": "Orc", "stats": {"initiative": -5}}');
    session.handle(
      'define-action action={"id": "smite", "name": "Smite", "kind": "action", "cost": {"action": 1}, "params": [{"name": "target", "required": true, "label": "Whom to smite"}]}',
    );
    session.handle('start {"initiative": {"ana": 20, "orc": 1}}');
    session.handle('{"type": "start", "initiative": {"ana": 20, "orc": 1}}');
    expect(session.state.current).toBe('ana');
    const n =
      session
        .legal('ana')
        .filter((l) => l.enabled)
        .findIndex((l) => l.action.id === 'smite') + 1;
    expect(session.actionList('ana')).toContain('takes Whom to smite');
    const asked = session.handle(String(n));
    expect(asked).toMatchObject({ prompt: true });
    expect(asked.out).toContain('Smite — Whom to smite');
    expect(asked.out).toContain('1. Orc');
    expect(session.handle('')).toMatchObject({ ok: false, prompt: true });
    expect(session.handle('7')).toMatchObject({ ok: false, prompt: true });
    const done = session.handle('1');
    expect(done.ok).toBe(true);
    expect(session.commands.at(-1)?.command).toEqual({
      type: 'act',
      actor: 'ana',
      action: 'smite',
      target: 'orc',
    });
  });
});

describe('play: the log', () => {
  it('`log` words each line at its own turn’s Mark, not at the fight’s now', () => {
    const session = openSession({ ruleset: 'tara-corax', seed: 1 }, rulesets);
    for (const [id, initiative] of [
      ['ana', 9],
      ['bo', 6],
      ['orc', 3],
    ] as const) {
      const added = session.handle(
        `add-combatant combatant={"id": "${id}", "name": "${id}", "side": "pc", "hp": 9, "stats": {"initiative": ${initiative}}}`,
      );
      expect(added.ok, added.out).toBe(true);
    }
    for (const line of ['start', 'next', 'next']) expect(session.handle(line).ok).toBe(true);
    const acts = session
      .handle('log')
      .out.split('\n')
      .filter((l) => l.endsWith(' acts.'));
    expect(acts).toHaveLength(3);
    expect(new Set(acts.map((l) => /Mark (\d+):/.exec(l)?.[1])).size).toBe(3);
  });
});
