import { parseServerMessage } from '@roundkeeper/engine';
import { describe, expect, it } from 'vitest';
import { SocketCommands } from './socket-commands.js';

/** A socket that records what is sent and lets the test deliver messages and close it. */
class FakeSocket extends EventTarget {
  readonly sent: Array<{ type: string; id: string; command: unknown }> = [];
  send(text: string): void {
    this.sent.push(JSON.parse(text) as { type: string; id: string; command: unknown });
  }
  /** A message as the page's dispatcher hands it on: read into the wire union, results to the commands. */
  deliver(commands: SocketCommands, data: string): void {
    const r = parseServerMessage(data);
    if (!r.ok) throw new Error(r.error);
    if (r.message.type === 'result') commands.received(r.message);
  }
  close(): void {
    this.dispatchEvent(new Event('close'));
  }
  asSocket(): WebSocket {
    return this as unknown as WebSocket;
  }
}

describe('commands over the live socket', () => {
  it('sends each command with an id and settles it by its result, the refusal sentence included', async () => {
    const commands = new SocketCommands();
    const socket = new FakeSocket();
    commands.attach(socket.asSocket());
    const first = commands.send(socket.asSocket(), { type: 'next' });
    const second = commands.send(socket.asSocket(), { type: 'act', actor: 'ana', action: 'fly' });
    expect(socket.sent.map((m) => m.type)).toEqual(['command', 'command']);
    const [a, b] = socket.sent;
    expect(a!.id).not.toBe(b!.id);
    // A change in between is not a result; results may come in any order.
    socket.deliver(commands, '{"type":"change","seq":3,"from":2,"entries":[],"delta":{}}');
    const error = { code: 'rules/unknown-action', message: 'Ana has no action "fly".' };
    socket.deliver(commands, JSON.stringify({ type: 'result', id: b!.id, ok: false, error }));
    socket.deliver(commands, JSON.stringify({ type: 'result', id: a!.id, ok: true, seq: 4 }));
    expect(await first).toEqual({ ok: true });
    expect(await second).toEqual({ ok: false, error: error.message, code: error.code });
  });

  it('a command the socket loses is reported as unknown and never sent again', async () => {
    const commands = new SocketCommands();
    const socket = new FakeSocket();
    commands.attach(socket.asSocket());
    const lost = commands.send(socket.asSocket(), { type: 'next' });
    socket.close();
    const result = await lost;
    expect(result.ok).toBe(false);
    expect(result.error).toContain('may or may not have been done');
    expect(socket.sent).toHaveLength(1);
  });
});
