import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { textFrame } from './frame.js';

describe('textFrame', () => {
  it('a client reads each frame as the text it was made of, for each of the three lengths a header can give', async () => {
    const texts = [
      '',
      '{"type":"pong"}',
      'x'.repeat(125),
      'é'.repeat(63),
      'x'.repeat(126),
      'ü'.repeat(40_000),
      'x'.repeat(65_535),
      'x'.repeat(65_536),
      `{"a":"${'ö'.repeat(70_000)}"}`,
    ];
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(server, 'listening');
    // The frames written straight to the connection's socket, between two that ws frames itself.
    server.on('connection', (socket, req) => {
      socket.send('first');
      for (const text of texts) req.socket.write(textFrame(text));
      socket.send('last');
    });
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const received: string[] = [];
    const all = new Promise<void>((resolve, reject) => {
      client.on('message', (data, isBinary) => {
        if (isBinary) reject(new Error('a binary message'));
        received.push(String(data));
        if (received.length === texts.length + 2) resolve();
      });
      client.on('error', reject);
    });
    await all;
    client.close();
    server.close();
    expect(received).toEqual(['first', ...texts, 'last']);
  });
});
