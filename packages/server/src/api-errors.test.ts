import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryApp } from './test-app.js';
import { tempDir } from './test-process.js';

// Issue 32's server bullets: errors a script can read.

let app: FastifyInstance;
beforeAll(async () => {
  const web = tempDir();
  writeFileSync(join(web, 'index.html'), '<!doctype html><title>the web app</title>');
  ({ app } = await memoryApp({
    webRoot: web,
  }));
});
afterAll(async () => {
  await app.close();
});

const create = async (body: unknown) => {
  const r = await app.inject({
    method: 'POST',
    url: '/api/encounters',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  return { status: r.statusCode, error: (r.json() as { error?: { code: string; message: string } }).error };
};

describe('POST /api/encounters with a bad body says which field and why', () => {
  it.each([
    [{ name: '', ruleset: 'classic' }, /name/],
    [{ name: 'x'.repeat(121), ruleset: 'classic' }, /name.*120|120.*name/i],
    [{ name: 'Fight' }, /ruleset/],
    [{ name: 'Fight', ruleset: 'classic', seed: 1.5 }, /seed/],
    [{ name: 'Fight', ruleset: 'classic', combatants: [{ name: '' }] }, /combatants/],
    [{ name: 'Fight', ruleset: 'classic', colour: 'red' }, /colour/],
    [{ scenario: {}, extra: 1 }, /extra/],
  ])('%j', async (body, field) => {
    const r = await create(body);
    expect(r.status).toBe(400);
    expect(r.error?.code).toBe('request/invalid');
    expect(r.error?.message).toMatch(field);
    expect(r.error?.message).not.toBe('Invalid input.');
  });
});

describe('an unknown /api/ path', () => {
  it.each([
    ['GET', '/api/nope'],
    ['GET', '/api/openapi.yaml'],
    ['POST', '/api/nope'],
    ['GET', '/api/encounters/abc/nope'],
  ] as const)('%s %s gets a JSON 404, not the web app', async (method, url) => {
    const r = await app.inject({ method, url });
    expect(r.statusCode).toBe(404);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.json()).toMatchObject({ error: { code: 'request/not-found' } });
  });

  it("while the web app's own routes still get the app", async () => {
    const r = await app.inject({ method: 'GET', url: '/e/abc?token=x' });
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('the web app');
  });
});
