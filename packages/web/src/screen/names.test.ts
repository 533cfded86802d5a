import type { Combatant, EncounterView, LogEntry } from '@roundkeeper/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { namesOf, namingsOf } from './names.js';

const ids = ['a', 'b', 'c', 'd'];
const nameArb = fc.constantFrom('Ana', 'Orc', 'Goblin', 'Bren');
const combatant = (id: string, name: string) =>
  ({ id, name, side: 'npc', active: true }) as unknown as Combatant;

/** A log of additions, renames and other entries, as the server sends it. */
const logArb = fc
  .array(
    fc.oneof(
      fc.record({ kind: fc.constant('add'), id: fc.constantFrom(...ids), name: nameArb }),
      fc.record({ kind: fc.constant('rename'), id: fc.constantFrom(...ids), name: nameArb }),
      fc.record({ kind: fc.constant('other'), id: fc.constantFrom(...ids), name: nameArb }),
    ),
    { maxLength: 30 },
  )
  .map((steps) =>
    steps.map(
      ({ kind, id, name }, i): LogEntry =>
        ({
          seq: i + 1,
          group: i + 1,
          event:
            kind === 'add'
              ? { type: 'combatant/added', combatant: combatant(id, name) }
              : kind === 'rename'
                ? { type: 'combatant/updated', combatant: id, patch: { name } }
                : { type: 'turn/started', combatant: id },
        }) as unknown as LogEntry,
    ),
  );

const viewArb = fc.subarray(ids).map(
  (present): Pick<EncounterView, 'combatants' | 'roster'> => ({
    roster: present,
    combatants: Object.fromEntries(present.map((id) => [id, combatant(id, `${id.toUpperCase()} now`)])),
  }),
);

const plain = (n: ReturnType<typeof namesOf>) => ({ byId: [...n.byId], departed: [...n.departed] });

describe('names read from a growing log', () => {
  it('a log read from where the last one ended names everyone as a log read whole', () => {
    fc.assert(
      fc.property(logArb, fc.nat(), viewArb, (log, cut, view) => {
        const at = log.length ? cut % (log.length + 1) : 0;
        const prefix = log.slice(0, at);
        namesOf(view, prefix);
        // The same entries, appended to: read from where the prefix ended.
        const grown = [...prefix, ...log.slice(at)];
        // A copy shares no entry with what was read before: read whole.
        const whole = structuredClone(grown);
        expect(plain(namesOf(view, grown))).toEqual(plain(namesOf(view, whole)));
      }),
    );
  });

  it('the names of a view alone, asked between two changes, leave the log read where it ended', () => {
    const log: LogEntry[] = Array.from(
      { length: 40 },
      (_, i) =>
        ({
          seq: i + 1,
          group: i + 1,
          event: { type: 'combatant/added', combatant: combatant(`c${i}`, `Fighter ${i}`) },
        }) as unknown as LogEntry,
    );
    const first = log.slice(0, 39);
    namingsOf(first);
    // The legal actions and the timeline ask for the view's names alone (no log) on every change.
    namesOf({ roster: [], combatants: {} }, []);
    // The next change's log: the same entries and one more. Count the entries read out of it.
    let read = 0;
    const grown = new Proxy(log, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) read++;
        return Reflect.get(target, key, receiver);
      },
    });
    expect(namingsOf(grown).map((n) => n.id)).toEqual(log.map((_, i) => `c${i}`));
    // Its first and last entries already read are compared, then the one new entry is read (not 40).
    expect(read).toBe(3);
  });
});
