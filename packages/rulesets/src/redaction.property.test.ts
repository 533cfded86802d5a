import { coreEventSchemas, type EngineEvent, type Viewer, viewEvent } from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rulesets } from './index.js';
import { arbitraryOf } from './testing/arbitrary.js';
import { encounter } from './testing/harness.js';

const SPY = 'HIDDENSPY';
const viewers: Viewer[] = [{ role: 'table' }, { role: 'player', combatants: ['seen'] }];

/**
 * For every event type a ruleset or the engine declares, events generated from its schema — every field,
 * combatant ids anywhere the declaration marks one — never carry a hidden combatant's id to the table or
 * a player. (The encounter's creation event carries a whole state and is covered by `view`'s own tests.)
 */
describe('redaction by declaration: no hidden id survives any declared event', () => {
  for (const ruleset of Object.values(rulesets)) {
    const enc = encounter({
      ruleset: ruleset.id,
      combatants: [
        { id: 'seen', name: 'Seen', side: 'pc' },
        { id: 'other', name: 'Other', side: 'npc' },
        { id: SPY, name: 'Spy', side: 'npc', hidden: true },
      ],
    });
    const schemas = { ...coreEventSchemas, ...(ruleset.events ?? {}) };
    for (const [type, schema] of Object.entries(schemas)) {
      if (type === 'encounter/created') continue;
      it(`${ruleset.id}: ${type}`, () => {
        fc.assert(
          fc.property(arbitraryOf(schema, ['seen', 'other', SPY]), (fields) => {
            const event = { ...fields, type } as EngineEvent;
            for (const viewer of viewers) {
              const seen = viewEvent(event, viewer, enc.state, ruleset, new Set([SPY]));
              if (seen) expect(JSON.stringify(seen)).not.toContain(SPY);
            }
          }),
          { numRuns: 60 },
        );
      });
    }
  }
});
