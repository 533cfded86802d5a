import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOf } from './openapi.js';
import { toOpenApiPath } from './openapi-document.js';
import { memoryApp } from './test-app.js';

type Document = {
  openapi: string;
  paths: Record<
    string,
    Record<string, { parameters?: { name: string; in: string }[]; requestBody?: unknown; responses: object }>
  >;
  components: { schemas: Record<string, unknown> };
};

let app: FastifyInstance;
let document: Document;
beforeAll(async () => {
  ({ app } = await memoryApp({
    version: '9.8.7',
  }));
  await app.ready();
  const r = await app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(r.statusCode).toBe(200);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  document = r.json();
});
afterAll(async () => {
  await app.close();
});

describe('GET /api/openapi.json', () => {
  it('validates as an OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it("every reference names one of the document's own schemas", () => {
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"([^"]*)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\/[A-Za-z0-9]+$/);
      expect(document.components.schemas).toHaveProperty(ref.slice('#/components/schemas/'.length));
    }
  });

  it('carries the server version', () => {
    expect(document).toMatchObject({ openapi: '3.1.1', info: { version: '9.8.7' } });
  });

  it('has every route the server answers, and only those', () => {
    const routes = routesOf(app).filter((r) => r.url.startsWith('/api/'));
    // Fastify answers HEAD for each GET by itself; OpenAPI's `get` covers it.
    const answered = routes.filter((r) => r.method !== 'HEAD');
    expect(answered.length).toBeGreaterThan(15);
    for (const route of answered) {
      const path = toOpenApiPath(route.url);
      expect(document.paths[path], `${route.method} ${path}`).toHaveProperty(route.method.toLowerCase());
    }
    for (const route of routes.filter((r) => r.method === 'HEAD')) {
      expect(routes).toContainEqual({ method: 'GET', url: route.url });
    }
    // And the other way: every documented operation is a route Fastify has.
    const documented = Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => ({ method: method.toUpperCase(), path })),
    );
    expect(documented).toHaveLength(answered.length);
    for (const { method, path } of documented) {
      const url = path.replace(/\{([^}]+)\}/g, ':$1');
      expect(app.hasRoute({ method: method as HTTPMethods, url }), `${method} ${url}`).toBe(true);
    }
  });

  it("names each path's parameters as the route does", () => {
    for (const [path, ops] of Object.entries(document.paths)) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries(ops)) {
        const inPath = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
        expect(inPath.sort(), `${method} ${path}`).toEqual([...names].sort());
      }
    }
  });

  it('lists 413 for each operation that takes a body, and each answers it to a body over the limit', async () => {
    const withBody = Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.requestBody)
        .map(([method, op]) => ({ method, path, op })),
    );
    expect(withBody.length).toBeGreaterThanOrEqual(9);
    const payload = JSON.stringify({ padding: 'x'.repeat(300 * 1024) });
    for (const { method, path, op } of withBody) {
      expect(op.responses, `${method} ${path}`).toHaveProperty('413');
      const url = path.replace(/\{[^}]+\}/g, (p) => (p === '{ruleset}' ? 'classic' : 'abc'));
      const r = await app.inject({
        method: method.toUpperCase() as HTTPMethods,
        url,
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(r.statusCode, `${method} ${url}`).toBe(413);
    }
  });

  it("describes a body with the route's own schema (the form's limits, the link names)", () => {
    const text = JSON.stringify(document.components.schemas);
    expect(document.components.schemas).toHaveProperty('PostEncountersBody');
    // formSchema: the name is 1–120 characters, at most 200 combatants.
    expect(text).toContain('"maxLength":120');
    expect(text).toContain('"maxItems":200');
    expect(JSON.stringify(document.components.schemas.PostEncountersIdLinksRevokeBody)).toContain('"player"');
  });
});
