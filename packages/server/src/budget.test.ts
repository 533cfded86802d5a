import { describe, expect, it } from 'vitest';
import { budgetsFor, STORAGE_BUDGETS, StorageBudgets } from './budget.js';

describe('storage budgets', () => {
  it('refuse a client past its bytes, then everyone past the overall budget, until the window ends', () => {
    let now = 0;
    const budgets = new StorageBudgets(STORAGE_BUDGETS, () => now);
    const mb = 2 ** 20;
    budgets.spend('a', 'bytes', 49 * mb);
    expect(budgets.refusal('a', 'bytes')).toBeUndefined();
    budgets.spend('a', 'bytes', 2 * mb);
    expect(budgets.refusal('a', 'bytes')?.message).toContain('50 MB in the last 10 minutes');
    expect(budgets.refusal('b', 'bytes')).toBeUndefined();
    for (let i = 0; i < 10; i++) budgets.spend(`client${i}`, 'bytes', 45 * mb);
    expect(budgets.refusal('new', 'bytes')?.message).toContain('500 MB for everyone');
    expect(budgets.refusal('new', 'encounters')).toBeUndefined();
    now += STORAGE_BUDGETS.windowMs;
    expect(budgets.refusal('a', 'bytes')).toBeUndefined();
    expect(budgets.refusal('new', 'bytes')).toBeUndefined();
  });

  it('count encounters per client', () => {
    const budgets = new StorageBudgets();
    for (let i = 0; i < 100; i++) budgets.spend('a', 'encounters', 1);
    expect(budgets.refusal('a', 'encounters')?.message).toContain('created 100 encounters');
    expect(budgets.refusal('b', 'encounters')).toBeUndefined();
  });

  it('--encounter-budget sets them: N per client and 10 N for all, or none with 0', () => {
    const five = new StorageBudgets(budgetsFor(5));
    for (let i = 0; i < 5; i++) five.spend('a', 'encounters', 1);
    expect(five.refusal('a', 'encounters')?.message).toContain('created 5 encounters');
    const none = new StorageBudgets(budgetsFor(0));
    for (let i = 0; i < 5000; i++) none.spend('a', 'encounters', 1);
    none.spend('a', 'bytes', 10 * 2 ** 30);
    expect(none.refusal('a', 'encounters')).toBeUndefined();
    expect(none.refusal('a', 'bytes')).toBeUndefined();
    expect(budgetsFor(undefined)).toBe(STORAGE_BUDGETS);
  });
});
