import { describeCost, type LegalAction } from '@roundkeeper/engine';
import { describe, expect, it, vi } from 'vitest';
import { costWords, itemOf } from './ActionItem.js';

// `describeCost` as the engine has it, counted: the palette words a cost only when its amounts change.
const wordings = vi.hoisted(() => ({ mock: { calls: [] as unknown[] } }));
vi.mock('@roundkeeper/engine', async (load) => {
  const engine = await load<typeof import('@roundkeeper/engine')>();
  return {
    ...engine,
    describeCost: (cost: Readonly<Record<string, number>>) => {
      wordings.mock.calls.push(cost);
      return engine.describeCost(cost);
    },
  };
});

const action = (over: Partial<LegalAction> = {}): LegalAction => ({
  action: { id: 'attack', name: 'Attack', kind: 'attack', cost: { marks: 3 }, tags: [], text: 'Hit it.' },
  enabled: false,
  reason: "It is Orc's turn.",
  cost: { marks: 3 },
  ...over,
});

/** A palette button is skipped when its values are equal: what it does not show must not be among them. */
describe('itemOf: the values a palette button is drawn from', () => {
  it('a quiet button (its reason said once above) keeps its values when the turn passes', () => {
    const before = itemOf(action(), { id: null, cost: false, preview: false }, 'shared');
    const after = itemOf(
      action({ reason: "It is Bren's turn." }),
      { id: null, cost: false, preview: false },
      'shared',
    );
    expect(after).toEqual(before);
    expect(before).toMatchObject({ reason: null, sharedId: 'shared' });
  });

  it('a button that says its own reason changes with it', () => {
    const own = itemOf(action(), { id: null, cost: false, preview: false }, null);
    expect(own.reason).toBe("It is Orc's turn.");
    expect(itemOf(action({ reason: 'Later.' }), { id: null, cost: false, preview: false }, null)).not.toEqual(
      own,
    );
  });

  it('what the group heading says (cost, landing) is not on the button', () => {
    const l = action({
      preview: { from: { round: 1, at: [1] }, to: { round: 1, at: [4] }, label: 'Mark 4' },
    });
    expect(itemOf(l, { id: 'g', cost: true, preview: true }, null)).toMatchObject({
      cost: null,
      preview: null,
    });
    expect(itemOf(l, { id: null, cost: false, preview: false }, null).preview).toBe('Mark 4');
  });

  it('a required field makes its click open the form; optional fields get a ⋯', () => {
    const field = { name: 'roll', label: 'Roll', type: 'number' } as const;
    const needs = itemOf(
      action({ params: [{ ...field, required: true }] }),
      { id: null, cost: false, preview: false },
      null,
    );
    expect(needs).toMatchObject({ needs: true, details: false });
    const more = itemOf(
      action({ params: [{ ...field, required: false }] }),
      { id: null, cost: false, preview: false },
      null,
    );
    expect(more).toMatchObject({ needs: false, details: true });
  });
});

describe('costWords: an action’s cost worded once while its amounts stay', () => {
  it('says what describeCost says, and again when the amounts change', () => {
    const def = { id: 'strike', name: 'Strike', kind: 'attack', cost: { marks: 3 }, tags: [], text: '' };
    expect(costWords({ action: def, cost: { marks: 3 } })).toBe(describeCost({ marks: 3 }));
    expect(costWords({ action: def, cost: { marks: 1 } })).toBe(describeCost({ marks: 1 }));
    expect(costWords({ action: def, cost: { marks: 2, fatigue: 1 } })).toBe(
      describeCost({ marks: 2, fatigue: 1 }),
    );
  });

  it('an unchanged cost, asked again with a new object, is not worded again', () => {
    const def = { id: 'dodge', name: 'Dodge', kind: 'defense', cost: { marks: 2 }, tags: [], text: '' };
    costWords({ action: def, cost: { marks: 2 } });
    const before = wordings.mock.calls.length;
    expect(costWords({ action: def, cost: { marks: 2 } })).toBe('2 marks');
    expect(wordings.mock.calls.length).toBe(before);
    costWords({ action: def, cost: { marks: 4 } });
    expect(wordings.mock.calls.length).toBe(before + 1);
  });
});
