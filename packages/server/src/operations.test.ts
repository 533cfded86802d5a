import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT_LIMITS } from './limits.js';
import { type ServerProcess, startServerProcess } from './test-process.js';

// Issue 34, item 7, against a real server process.

let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess(undefined, ['--rate-limit', '0']);
});
afterAll(async () => {
  await server?.stop();
});

/** A POST that asks before sending its body, as curl does: what came back, and whether it was asked for the body. */
function postAsking(bytes: number): Promise<{ status: number; body: string; continued: boolean }> {
  return new Promise((resolve, reject) => {
    const url = new URL('/api/encounters', server.url);
    const body = Buffer.alloc(bytes, 0x20);
    let continued = false;
    const req = request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': bytes,
        expect: '100-continue',
      },
    });
    req.on('continue', () => {
      continued = true;
      req.end(body);
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, continued }));
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

describe('a body over the limit sent with Expect: 100-continue', () => {
  it('is answered 413 with a sentence before the body is sent, never with a reset', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await postAsking(INPUT_LIMITS.bodyBytes + 1 + i * 100_000);
      expect(r.status).toBe(413);
      expect(r.continued).toBe(false);
      expect(JSON.parse(r.body)).toMatchObject({ error: { code: 'request/too-large' } });
    }
  });

  it('a body within the limit is asked for and read as usual', async () => {
    const r = await postAsking(1_000);
    expect(r.continued).toBe(true);
    // 1,000 spaces are not a JSON body: refused as such, which means it was read.
    expect(r.status).toBe(400);
  });
});
