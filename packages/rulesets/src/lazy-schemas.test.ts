import { describe, expect, it } from 'vitest';
import { rulesets } from './index.js';

/** Whether a record's value for `key` is still waiting for its first read (a getter, not a value). */
function unbuilt(record: object, key: string): boolean {
  return Object.getOwnPropertyDescriptor(record, key)?.get !== undefined;
}

describe("a ruleset's schemas are built when first used, not when the registry is imported", () => {
  it('leaves every command and event schema of every ruleset unbuilt until read', () => {
    for (const r of Object.values(rulesets)) {
      for (const key of Object.keys(r.commands))
        expect(unbuilt(r.commands, key), `${r.id} ${key}`).toBe(true);
      for (const key of Object.keys(r.events ?? {}))
        expect(unbuilt(r.events ?? {}, key), `${r.id} ${key}`).toBe(true);
    }
  });

  it('builds one command when it is read, and gives the same schema every time', () => {
    const { classic } = rulesets;
    const next = classic?.commands.next;
    expect(next?.safeParse({}).success).toBe(true);
    expect(classic?.commands.next).toBe(next);
    expect(unbuilt(classic?.commands ?? {}, 'delay')).toBe(true);
    expect(classic?.optionsSchema).toBe(classic?.optionsSchema);
  });
});
