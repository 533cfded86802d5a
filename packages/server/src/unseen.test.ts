import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AnyRuleset, parseScenario, type Scenario } from '@roundkeeper/engine';
import { rulesets } from '@roundkeeper/rulesets';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { Hub, HubError } from './hub.js';
import { MemoryStorage } from './storage/memory.js';
import { api, LiveClient, type ServerProcess, startServerProcess } from './test-process.js';

// Issue 34, item 3: a refusal never reveals a combatant its viewer may not see. For every ruleset, every
// command a player or the table can send reads the same whether it names a hidden combatant or an id
// no combatant has.

const examples = fileURLToPath(new URL('../../../examples/', import.meta.url));
const HIDDEN = 'spyzq';
const NOBODY = 'zqspy';
const OWN = 'pcone';
const SLOT = '@@who@@';

function fixture(ruleset: string, started: boolean): Scenario {
  const file = readdirSync(join(examples, ruleset))
    .filter((f) => f.endsWith('.yaml'))
    .sort()[0]!;
  const raw = parseYaml(readFileSync(join(examples, ruleset, file), 'utf8')) as Record<string, unknown>;
  const parsed = parseScenario(raw);
  if ('code' in parsed) throw new Error(`${ruleset}/${file}: ${parsed.message}`);
  const first = parsed.combatants[0]!;
  const { id: _id, ...base } = first;
  return {
    ...parsed,
    combatants: [
      { ...base, id: OWN, name: 'Pcone', side: 'pc', hidden: false },
      { ...base, id: HIDDEN, name: 'Spyzq', side: 'npc', hidden: true },
      ...parsed.combatants,
    ],
    commands: started ? parsed.commands.filter((s) => !s.by) : [],
  };
}

/** The fields a command of this type takes, or a few common ones. */
function fieldsOf(rs: AnyRuleset, type: string): string[] {
  const schema = rs.commands[type];
  const shape = schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
  return [...new Set([...shape.filter((k) => k !== 'type'), 'actor', 'target', 'combatant'])];
}

const CORE = [
  'damage',
  'heal',
  'add-effect',
  'update-combatant',
  'remove-combatant',
  'defeat',
  'next',
  'undo',
];

function commandArb(rs: AnyRuleset, visible: string): fc.Arbitrary<Record<string, unknown>> {
  const types = [...Object.keys(rs.commands), ...CORE];
  const value = fc.oneof(
    fc.constant(SLOT),
    fc.constant([SLOT]),
    fc.constant({ [SLOT]: 5 }),
    fc.constant(OWN),
    fc.constant(visible),
    fc.constant([OWN, SLOT]),
    fc.integer({ min: -3, max: 30 }),
    fc.constantFrom('melee', 'dodge', 'attack', 'x'),
  );
  return fc.constantFrom(...types).chain((type) =>
    fc
      .subarray(fieldsOf(rs, type), { minLength: 1 })
      .chain((keys) => fc.tuple(...keys.map(() => value)).map((vs) => ({ keys, vs })))
      .map(({ keys, vs }) => {
        const command: Record<string, unknown> = { type };
        keys.forEach((k, i) => {
          command[k] = vs[i];
        });
        return command;
      }),
  );
}

const fill = (command: unknown, who: string) => JSON.parse(JSON.stringify(command).replaceAll(SLOT, who));

/** What the sender is told, with the id it named written the same way whichever it was. */
async function told(hub: Hub, scenario: Scenario, role: 'player' | 'table', command: unknown, who: string) {
  const c = await hub.create({ scenario });
  const id = c.record.id;
  const rs = rulesets[scenario.ruleset]!;
  await hub.setAllowed(id, c.tokens.gm, OWN, [...Object.keys(rs.commands), 'next']);
  const token = role === 'player' ? c.tokens.players[OWN]! : c.tokens.table;
  const link = await hub.link(token, id);
  try {
    await hub.command(id, link, fill(command, who));
    return 'accepted';
  } catch (error) {
    if (!(error instanceof HubError)) throw error;
    return JSON.stringify({ status: error.status, refusal: error.rejection }).replaceAll(who, '<id>');
  }
}

describe('a refusal reads the same for a hidden id and an id nobody has', () => {
  const hub = new Hub(new MemoryStorage(), rulesets);
  for (const ruleset of Object.keys(rulesets)) {
    it(`${ruleset}: every command a player or the table can send`, async () => {
      const rs = rulesets[ruleset]!;
      const scenarios = [fixture(ruleset, false), fixture(ruleset, true)];
      const visible = scenarios[0]!.combatants[2]!.id!;
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(0, 1),
          fc.constantFrom('player' as const, 'table' as const),
          commandArb(rs, visible),
          async (s, role, command) => {
            const scenario = scenarios[s]!;
            const hidden = await told(hub, scenario, role, command, HIDDEN);
            const nobody = await told(hub, scenario, role, command, NOBODY);
            expect(hidden).toBe(nobody);
            expect(hidden).not.toMatch(/Spyzq/);
          },
        ),
        { numRuns: 40 },
      );
    });
  }
});

describe('over HTTP and the socket, against a real process: the issue’s probe', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess(undefined, ['--rate-limit', '0']);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("a player's act for a hidden combatant reads as one for an id that does not exist", async () => {
    const r = await api(server.url, 'POST', '/api/encounters', {
      name: 'Crypt',
      ruleset: 'classic',
      seed: 2,
      combatants: [
        { id: 'ana', name: 'Ana', side: 'pc', stats: { initiative: 30 } },
        { id: HIDDEN, name: 'Spyzq', hidden: true, stats: { initiative: 1 } },
      ],
    });
    const c = r.body as {
      encounter: { id: string };
      tokens: { gm: string; players: Record<string, string> };
    };
    const id = c.encounter.id;
    const ana = c.tokens.players.ana!;
    await api(
      server.url,
      'POST',
      `/api/encounters/${id}/commands`,
      { command: { type: 'start' } },
      c.tokens.gm,
    );
    const act = (actor: string) => ({ type: 'act', actor, action: 'attack', target: 'ana' });
    const http = async (actor: string) => {
      const res = await api(
        server.url,
        'POST',
        `/api/encounters/${id}/commands`,
        { command: act(actor) },
        ana,
      );
      return JSON.stringify(res).replaceAll(actor, '<id>');
    };
    expect(await http(HIDDEN)).toBe(await http(NOBODY));
    expect(await http(HIDDEN)).not.toMatch(/Spyzq/);
    const live = new LiveClient(`${server.url}/api/encounters/${id}/live?token=${ana}`);
    await live.next((m) => m.type === 'hello');
    const socket = async (actor: string) => {
      live.send({ type: 'command', id: actor, command: act(actor) });
      const m = await live.next((x) => x.type === 'result' && x.id === actor);
      return JSON.stringify(m).replaceAll(actor, '<id>');
    };
    expect(await socket(HIDDEN)).toBe(await socket(NOBODY));
    expect(await socket(HIDDEN)).not.toMatch(/Spyzq/);
    live.close();
  });
});
