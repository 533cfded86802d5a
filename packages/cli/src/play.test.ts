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
