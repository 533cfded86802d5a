import { fileURLToPath } from 'node:url';
import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it } from 'vitest';
import { ACTION_KEYS, inTerminalWords, openSession, parseCommandLine } from './play.js';

const duel = fileURLToPath(new URL('../../../examples/simulate/classic-duel.yaml', import.meta.url));
/** The README's example. */
const ambush = fileURLToPath(new URL('../../../examples/classic/ambush.yaml', import.meta.url));

describe('play says what is true of the fight (the README example, examples/classic/ambush.yaml)', () => {
  it('a scenario that ends the fight opens at the moment before its end, with actions to take', () => {
    const session = openSession({ scenario: ambush }, rulesets);
    expect(session.state.status).toBe('running');
    expect(session.state.current).toBe('wolf');
    expect(session.status()).not.toContain('ended');
    expect(session.legal('wolf').some((l) => l.enabled)).toBe(true);
    expect(session.opening).toContain('opens at the moment before the end');
    // The commands kept replay to this moment: an export does not end the fight.
    expect(session.commands.some((c) => c.command.type === 'end')).toBe(false);
    expect(session.handle('end')).toMatchObject({ ok: true });
    expect(session.state.status).toBe('ended');
  });

  it('a refusal names the command to type here, not a button of the web page', () => {
    const session = openSession({ ruleset: 'classic' }, rulesets);
    session.handle('add-combatant combatant={"id": "ana", "name": "Ana", "side": "pc"}');
    const r = session.handle('act ana attack');
    expect(r.ok).toBe(false);
    expect(r.out).toContain('type start');
    expect(r.out).not.toMatch(/press|Roll initiative/i);
  });

  it('says the web page’s controls as terminal commands, the ruleset’s own by their labels', () => {
    const tara = rulesets['tara-corax']!;
    expect(inTerminalWords('Round 2 has ended; press Next to roll Initiative.', tara)).toBe(
      'Round 2 has ended; type next to roll Initiative.',
    );
    expect(inTerminalWords('Press Roll initiative first, once the GM presses Next.', tara)).toBe(
      'Type start first, once the GM types next.',
    );
  });

  it('the roster is in the round’s order, said in the ruleset’s words, not raw keys', () => {
    const session = openSession({ scenario: ambush }, rulesets);
    const roster = session
      .status()
      .split('\n')
      .filter((l) => /\[(ana|bren|orc|wolf),/.test(l))
      .map((l) => /\[(\w+),/.exec(l)![1]);
    // Round 3: Ana, the Orc, then Bren (who stepped in after the Orc in round 2), the Wolf acting.
    expect(roster).toEqual(['ana', 'orc', 'bren', 'wolf']);
    const text = session.status();
    expect(text).toContain('Available: action, bonus action, reaction');
    expect(text).not.toMatch(/used\.action|delaying no|\bkey\b/);
  });

  it('tempo: while plans are made the roster stands still, PCs first, as on the web page', () => {
    const session = openSession({ ruleset: 'tempo' }, rulesets);
    for (const [id, name, side] of [
      ['orc', 'Orc', 'npc'],
      ['ana', 'Ana', 'pc'],
      ['bren', 'Bren', 'pc'],
    ])
      session.handle(`add-combatant combatant={"id": "${id}", "name": "${name}", "side": "${side}"}`);
    session.handle('start');
    const roster = () =>
      session
        .status()
        .split('\n')
        .flatMap((l) => /^..\w+ \[(\w+),/.exec(l)?.[1] ?? []);
    expect(roster()).toEqual(['ana', 'bren', 'orc']);
    for (const [who, action] of [
      ['bren', 'quick-attack'],
      ['orc', 'quick-attack'],
      ['ana', 'slow-attack'],
    ])
      expect(session.handle(`plan ${who} action=${action}`)).toMatchObject({ ok: true });
    expect(roster()).toEqual(['ana', 'bren', 'orc']);
  });

  it('every action listed has a key, and the key line says all of them', () => {
    const session = openSession({ scenario: ambush }, rulesets);
    const enabled = session.legal('wolf').filter((l) => l.enabled);
    expect(enabled.length).toBeGreaterThan(10);
    const listed = session
      .actionList('wolf')
      .split('\n')
      .slice(1)
      .map((l) => l.trim().split(/\s+/)[0])
      .filter((k) => k !== '-');
    expect(listed).toEqual(ACTION_KEYS.slice(0, enabled.length));
    expect(session.keys()).toContain(
      `1–9, 0, ${enabled.length === 11 ? 'a' : `a–${ACTION_KEYS[enabled.length - 1]}`} act`,
    );
    // The last key takes the last action.
    const last = ACTION_KEYS[enabled.length - 1]!;
    expect(session.key(last)).toMatchObject({ ok: true });
    expect(session.commands.at(-1)?.command).toMatchObject({
      actor: 'wolf',
      action: enabled.at(-1)!.action.id,
    });
  });

  it('the help’s examples name an actor, an action and a target the fight has', () => {
    const session = openSession({ scenario: ambush }, rulesets);
    const help = session.handle('help').out;
    const [, actor, action, target] = /e\.g\. act (\S+) (\S+) target=(\S+)/.exec(help) ?? [];
    expect(session.state.combatants[actor!]).toBeDefined();
    expect(session.state.combatants[target!]).toBeDefined();
    expect(session.legal(actor).some((l) => l.action.id === action && l.enabled)).toBe(true);
    expect(help).not.toMatch(/\bmage\b|full-attack/);
  });
});

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
    expect(session.key('!')).toMatchObject({ ok: false });
    expect(session.key('!').out).toContain('Keys: n next');
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
