import { parseServerMessage, type ServerMessage } from '@roundkeeper/engine';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Created, Hub } from './hub.js';
import { messageText, rawMessage } from './messages.js';
import { memoryApp } from './test-app.js';

// Every message the server writes on a live socket is read back by the page's own reader
// (`parseServerMessage`, engine/src/wire.ts): a field renamed on either side fails here.

let running: FastifyInstance | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function serve(): Promise<{ url: string; hub: Hub }> {
  const { app, hub } = await memoryApp();
  running = app;
  return { url: await app.listen({ host: '127.0.0.1', port: 0 }), hub };
}

const party = [
  { id: 'ana', name: 'Ana', side: 'pc' as const, stats: { initiative: 3 } },
  { id: 'orc', name: 'Orc', stats: { initiative: 1 }, hp: 50 },
];

/** A socket that keeps every text it gets, read with the page's reader. */
class Reader {
  readonly texts: string[] = [];
  readonly ws: WebSocket;
  closed = false;
  constructor(url: string) {
    this.ws = new WebSocket(url.replace(/^http/, 'ws'));
    this.ws.on('message', (data) => this.texts.push(data.toString()));
    this.ws.on('close', () => {
      this.closed = true;
    });
  }
  /** Every message so far, each read with `parseServerMessage` (a text it refuses fails the test). */
  messages(): ServerMessage[] {
    return this.texts.map((text) => {
      const parsed = parseServerMessage(text);
      if (!parsed.ok) throw new Error(`${parsed.error}: ${text.slice(0, 300)}`);
      return parsed.message;
    });
  }
  async until(test: (m: ServerMessage) => boolean): Promise<ServerMessage> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const found = this.messages().find(test);
      if (found) return found;
      if (Date.now() > deadline || this.closed) throw new Error(`no such message: ${this.texts.join('\n')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  send(text: string): void {
    this.ws.send(text);
  }
}

const live = (url: string, c: Created, token: string, after?: number) =>
  `${url}/api/encounters/${c.record.id}/live?token=${token}${after === undefined ? '' : `&after=${after}`}`;

describe('the live messages the server writes are the wire union', () => {
  it('hello, change, result, refusal, error, pong, events, allowed, revoked and deleted all parse', async () => {
    const { url, hub } = await serve();
    const c = await hub.create({ name: 'Wire', ruleset: 'classic', combatants: party });
    const gm = new Reader(live(url, c, c.tokens.gm));
    const player = new Reader(live(url, c, c.tokens.players.ana!));
    const table = new Reader(live(url, c, c.tokens.table));
    const hello = await gm.until((m) => m.type === 'hello');
    expect(hello).toMatchObject({
      type: 'hello',
      role: 'gm',
      encounter: { id: c.record.id, ruleset: 'classic' },
    });
    expect(await player.until((m) => m.type === 'hello')).toMatchObject({
      role: 'player',
      combatants: ['ana'],
      allowed: expect.arrayContaining(['act']),
    });
    await table.until((m) => m.type === 'hello');

    gm.send(JSON.stringify({ type: 'command', id: 'a', command: { type: 'start' } }));
    expect(await gm.until((m) => m.type === 'result')).toMatchObject({ id: 'a', ok: true });
    gm.send(JSON.stringify({ type: 'command', id: 'b', command: { type: 'next' } }));
    await gm.until((m) => m.type === 'result' && m.id === 'b');
    gm.send(JSON.stringify({ type: 'command', id: 'c', command: { type: 'no-such-command' } }));
    expect(await gm.until((m) => m.type === 'result' && m.id === 'c')).toMatchObject({ ok: false });
    gm.send('not json');
    await gm.until((m) => m.type === 'error');
    gm.send(JSON.stringify({ type: 'ping' }));
    await gm.until((m) => m.type === 'pong');
    for (const reader of [gm, player, table]) {
      const changes = await reader.until((m) => m.type === 'change' && m.seq >= 2);
      expect(changes).toMatchObject({ type: 'change' });
    }
    // Every change carries its view as a delta or whole, and its events.
    for (const m of [...gm.messages(), ...table.messages()]) {
      if (m.type !== 'change') continue;
      expect(m.delta !== undefined || m.state !== undefined).toBe(true);
      expect(m.events !== undefined || m.entries !== undefined).toBe(true);
    }

    // A resume gets what it missed in `events`.
    const resumed = new Reader(live(url, c, c.tokens.gm, 0));
    const events = await resumed.until((m) => m.type === 'events');
    expect(events.type === 'events' && events.entries.length).toBeGreaterThan(0);

    // The GM lets Ana add her own conditions: her socket hears what her link allows now.
    const allowing = ['act', 'add-effect', 'remove-effect'];
    await hub.setAllowed(c.record.id, c.tokens.gm, 'ana', allowing);
    expect(await player.until((m) => m.type === 'allowed')).toEqual({ type: 'allowed', allowed: allowing });
    await hub.revokeLink(c.record.id, c.tokens.gm, { role: 'player', combatant: 'ana' });
    await player.until((m) => m.type === 'revoked');
    await hub.delete(c.record.id);
    await table.until((m) => m.type === 'deleted');
    await gm.until((m) => m.type === 'deleted');
    gm.messages();
    resumed.messages();
  });

  it('a message spliced from JSON already written is the text of the object it stands for', () => {
    const entries = [
      { seq: 1, group: 1, time: '2026-01-01T00:00:00.000Z', event: { type: 'round/started', round: 1 } },
    ];
    expect(rawMessage('events', { entries: JSON.stringify(entries) })).toBe(
      messageText({ type: 'events', entries } as ServerMessage),
    );
    const spliced = rawMessage<Extract<ServerMessage, { type: 'change' }>>('change', {
      seq: '3',
      from: '2',
      group: '4',
      delta: '{}',
    });
    expect(parseServerMessage(spliced)).toEqual({
      ok: true,
      message: { type: 'change', seq: 3, from: 2, group: 4, delta: {} },
    });
  });
});
