import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { insertAgenda, insertAgendaMany } from './evolve.js';
import type { AgendaEntry } from './types.js';

/** Entries with few ids and few instants, so repeated ids and ties are common. */
const entry: fc.Arbitrary<AgendaEntry> = fc.record({
  id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'),
  at: fc.record({
    round: fc.integer({ min: 1, max: 3 }),
    at: fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 2 }),
  }),
  kind: fc.constant('turn'),
  label: fc.string({ maxLength: 3 }),
});

describe('scheduling many agenda entries at once', () => {
  it('gives exactly the agenda inserting them one by one gives, repeated ids and ties included', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 8 }), fc.array(entry, { maxLength: 8 }), (before, added) => {
        // The agenda is always in clock order: build it the way the engine does.
        const agenda = before.reduce(insertAgenda, [] as AgendaEntry[]);
        const frozen = JSON.stringify(agenda);
        expect(insertAgendaMany(agenda, added)).toEqual(added.reduce(insertAgenda, agenda));
        expect(JSON.stringify(agenda)).toBe(frozen);
      }),
      { numRuns: 500 },
    );
  });
});
