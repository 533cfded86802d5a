import {
  EncounterLog,
  type EncounterState,
  type EncounterView,
  isRejection,
  type LegalAction,
  seededDice,
} from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import { describe, expect, it } from 'vitest';
import { conditionsOf, groupTerms, reasonKey, sharedReason } from '../model.js';

/** Ana (PC) and an Orc in a fight of this ruleset, started with these initiatives. */
function fight(ruleset: string, initiative: Record<string, number>): EncounterLog {
  const enc = EncounterLog.create(
    { id: 't', name: 'T', ruleset, options: {}, dice: seededDice(1) },
    rulesets,
  );
  if (isRejection(enc)) throw new Error(enc.message);
  for (const combatant of [
    { id: 'ana', name: 'Ana', side: 'pc', hp: 20, stats: {} },
    { id: 'orc', name: 'Orc', side: 'npc', hp: 9, stats: {} },
  ]) {
    const r = enc.execute({ type: 'add-combatant', combatant });
    if (isRejection(r)) throw new Error(r.message);
  }
  const r = enc.execute({ type: 'start', initiative });
  if (isRejection(r)) throw new Error(r.message);
  return enc;
}

/** The fight started: it is someone's turn, and the other's palette is mostly unavailable. */
function started(ruleset: string): EncounterState {
  return fight(ruleset, { ana: 1, orc: 20 }).state;
}

function off(name: string, reason: string): LegalAction {
  return {
    action: { id: name.toLowerCase(), name, kind: 'action', text: '' },
    enabled: false,
    reason,
    cost: {},
  } as unknown as LegalAction;
}

describe('palette: a reason most unavailable actions share is said once', () => {
  it('reasons that differ only by the action’s own name are the same reason', () => {
    const dash = off('Dash', "It is Orc's turn; Dash is taken on Ana's own turn.");
    const dodge = off('Dodge', "It is Orc's turn; Dodge is taken on Ana's own turn.");
    expect(reasonKey(dash)).toBe(reasonKey(dodge));
    // A name matches as a whole word only.
    expect(reasonKey(off('Dash', 'Dashing needs room; Dash is out.'))).toBe(
      'Dashing needs room; \u0000 is out.',
    );
    expect(reasonKey({ ...dash, enabled: true } as LegalAction)).toBeNull();
  });

  it('words the shared line for every greyed-out action, capitalised at the start of a sentence', () => {
    const turn = [
      off('Dash', "It is Orc's turn; Dash is taken on Ana's own turn."),
      off('Dodge', "It is Orc's turn; Dodge is taken on Ana's own turn."),
      off('Hide', "It is Orc's turn; Hide is taken on Ana's own turn."),
    ];
    expect(sharedReason(turn)?.text).toBe(
      "It is Orc's turn; each greyed-out action is taken on Ana's own turn.",
    );
    const marks = [
      off('Drink a potion', 'Drink a potion needs 10 Marks; Orc has 9 left.'),
      off('Sheathe a weapon', 'Sheathe a weapon needs 10 Marks; Orc has 9 left.'),
      off('Concentration Skill', 'Concentration Skill needs 10 Marks; Orc has 9 left.'),
    ];
    expect(sharedReason(marks)?.text).toBe('Each greyed-out action needs 10 Marks; Orc has 9 left.');
    // Fewer than three: each button keeps its own reason.
    expect(sharedReason(turn.slice(0, 2))).toBeNull();
  });

  it('takes the most common reason and leaves the others under their buttons', () => {
    const legal = [
      off('Bash', 'Declare first.'),
      off('Catch', 'Catch is a reaction the GM may allow.'),
      off('Choke', 'Declare first.'),
      off('Kick', 'Declare first.'),
    ];
    const shared = sharedReason(legal);
    expect(shared?.text).toBe('Declare first.');
    expect(legal.filter((l) => reasonKey(l) !== shared?.key).map((l) => l.action.name)).toEqual(['Catch']);
  });

  for (const ruleset of ['classic', 'tara-corax', 'six-second', 'stamina', 'opend6']) {
    it(`${ruleset}: a PC waiting for their turn reads one line, not one per action`, () => {
      const state = started(ruleset);
      const waiting = state.current === 'ana' ? 'orc' : 'ana';
      const legal = rulesets[ruleset]!.legalActions(state, waiting);
      const shared = sharedReason(legal);
      expect(shared).not.toBeNull();
      const own = legal.filter((l) => !l.enabled && reasonKey(l) !== shared!.key);
      const quiet = legal.filter((l) => !l.enabled).length - own.length;
      expect(quiet).toBeGreaterThan(own.length);
      expect(shared!.text).not.toContain('\u0000');
    });
  }
});

/** An available action of this kind, cost and preview. */
function on(name: string, kind: string, cost: Record<string, number>, label?: string): LegalAction {
  const at = { round: 1, at: [] };
  return {
    action: { id: name.toLowerCase(), name, kind, text: '' },
    enabled: true,
    cost,
    ...(label === undefined ? {} : { preview: { from: at, to: at, label } }),
  } as unknown as LegalAction;
}

describe('palette: what every button of a group has in common is said once, in its heading', () => {
  it('states a shared cost and a shared preview, each on its own', () => {
    const both = [
      on('Set', 'quarter', { marks: 5 }, 'Mark 17 → Mark 12'),
      on('Stand up', 'quarter', { marks: 5 }, 'Mark 17 → Mark 12'),
    ];
    expect(groupTerms(both, 'g')).toEqual({ id: 'g', cost: true, preview: true });
    const costOnly = [
      on('Bash', 'action', { actions: 1 }, 'tempo 3 (A)'),
      on('Kick', 'action', { actions: 1 }, 'tempo 5 (A)'),
    ];
    expect(groupTerms(costOnly, 'g')).toEqual({ id: 'g', cost: true, preview: false });
    const previewOnly = [
      on('Run', 'move', { seconds: 2 }, 'seconds 1–2'),
      on('Walk', 'move', { seconds: 3 }, 'seconds 1–2'),
    ];
    expect(groupTerms(previewOnly, 'g')).toEqual({ id: 'g', cost: false, preview: true });
    // Nothing in common, no preview at all, or a lone button: the buttons say it themselves.
    const none = [on('Dash', 'action', { actions: 1 }), on('Hide', 'action', { bonus: 1 })];
    expect(groupTerms(none, 'g')).toEqual({ id: null, cost: false, preview: false });
    expect(groupTerms([both[0]!], 'g')).toEqual({ id: null, cost: false, preview: false });
    expect(groupTerms([], 'g')).toEqual({ id: null, cost: false, preview: false });
    // { marks: 5 } and { marks: 5, free: 0 } read differently: not the same cost.
    expect(groupTerms([on('A', 'k', { marks: 5 }), on('B', 'k', { marks: 5, free: 0 })], 'g').cost).toBe(
      false,
    );
  });

  it('tara-corax: a turn passing changes the headings, not the buttons', () => {
    const enc = fight('tara-corax', { ana: 17, orc: 12 });
    const groupsOf = () => {
      const state = enc.state;
      const legal = rulesets['tara-corax']!.legalActions(state, state.current!).filter((l) => l.enabled);
      const kinds = [...new Set(legal.map((l) => l.action.kind))];
      return new Map(kinds.map((k) => [k, legal.filter((l) => l.action.kind === k)]));
    };
    const first = groupsOf();
    expect(isRejection(enc.execute({ type: 'next' }))).toBe(false);
    const second = groupsOf();
    let shared = 0;
    for (const [kind, items] of first) {
      const next = second.get(kind);
      if (!next || items.length < 2 || !items[0]!.preview) continue;
      // Every button of the group lands at the same place, and the next actor's land elsewhere.
      expect(groupTerms(items, 'g')).toEqual({ id: 'g', cost: true, preview: true });
      expect(groupTerms(next, 'g')).toEqual({ id: 'g', cost: true, preview: true });
      expect(next[0]!.preview!.label).not.toBe(items[0]!.preview!.label);
      shared++;
    }
    expect(shared).toBeGreaterThanOrEqual(3);
  });
});

describe('conditions: what is left of each, from where the fight is now', () => {
  it('counts down turns and rounds, and names the instant of a clock duration', () => {
    const enc = fight('classic', { ana: 20, orc: 1 });
    const add = (name: string, duration: Record<string, unknown>) => {
      const r = enc.execute({ type: 'add-effect', target: 'orc', name, duration });
      if (isRejection(r)) throw new Error(r.message);
    };
    add('Dazed', { kind: 'until-turn-start', combatant: 'orc', turns: 2 });
    add('Marked', { kind: 'until-turn-end', combatant: 'ana', turns: 0 });
    add('Blessed', { kind: 'until-round-end', round: 3 });
    add('Cursed', { kind: 'indefinite' });
    const lines = () =>
      Object.fromEntries(
        conditionsOf(enc.state as unknown as EncounterView, 'orc').map((c) => [c.name, c.remaining]),
      );
    expect(lines()).toEqual({
      Dazed: "until the start of Orc's turn, 2 turns from now",
      Marked: "until the end of Ana's turn",
      Blessed: 'until the end of round 3 (2 more rounds)',
      Cursed: 'until removed',
    });
    enc.execute({ type: 'next' }); // Orc's turn starts: one of Dazed's two turns is gone.
    expect(lines()).toEqual({
      Dazed: "until the start of Orc's next turn",
      Blessed: 'until the end of round 3 (2 more rounds)',
      Cursed: 'until removed',
    });
  });

  it('says at which instant a duration on the clock ends', () => {
    const state = started('tara-corax');
    const at = state.now!;
    const v = {
      ...state,
      effects: [
        {
          id: 'e',
          name: 'Slowed',
          target: 'ana',
          duration: { kind: 'for', amount: 3 },
          expires: { on: 'instant', at },
        },
      ],
    } as unknown as EncounterView;
    expect(conditionsOf(v, 'ana')[0]!.remaining).toBe(
      `until ${rulesets['tara-corax']!.clock.describe(state, at)}`,
    );
  });
});
