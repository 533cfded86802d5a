import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FastifyInstance } from 'fastify';
import { lexer, type Tokens } from 'marked';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryApp } from './test-app.js';

// docs/api.md's examples ("Examples"), run in order against a listening server: each `http request`
// block is sent, and the `http response` block after it is what must come back, read as that section
// says (a listed field must be there and match; `…` stands for any text; `{{name}}` notes a value that
// later blocks reuse).

const page = readFileSync(join(import.meta.dirname, '../../../docs/api.md'), 'utf8');

interface Example {
  request: string;
  response: string;
}

function examplesOf(markdown: string): Example[] {
  const blocks = lexer(markdown).filter(
    (t): t is Tokens.Code => t.type === 'code' && /^http /.test(t.lang ?? ''),
  );
  const examples: Example[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    if (block.lang !== 'http request')
      throw new Error(`A response with no request before it:\n${block.text}`);
    const next = blocks[i + 1];
    if (next?.lang !== 'http response')
      throw new Error(`A request with no response after it:\n${block.text}`);
    examples.push({ request: block.text, response: next.text });
    i++;
  }
  return examples;
}

/** A message's start line, headers and body. */
function message(text: string): { start: string; headers: [string, string][]; body: string } {
  const [head, ...rest] = text.split(/\n\n/);
  const [start, ...headerLines] = head!.split('\n');
  const headers = headerLines.map((line): [string, string] => {
    const at = line.indexOf(':');
    return [line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim()];
  });
  return { start: start!.trim(), headers, body: rest.join('\n\n').trim() };
}

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Matches `actual` against the documented `pattern`; adds what differs to `problems`, notes `{{name}}`s
 * in `values`.
 */
function match(
  pattern: unknown,
  actual: unknown,
  at: string,
  values: Map<string, string>,
  problems: string[],
) {
  if (typeof pattern === 'string') {
    if (typeof actual !== 'string') {
      problems.push(
        `${at}: expected a string like ${JSON.stringify(pattern)}, got ${JSON.stringify(actual)}`,
      );
      return;
    }
    const names: string[] = [];
    const source = pattern
      .split(/(…|\{\{\w+\}\})/)
      .map((part) => {
        if (part === '…') return '[\\s\\S]*?';
        const name = /^\{\{(\w+)\}\}$/.exec(part)?.[1];
        if (!name) return literal(part);
        const known = values.get(name);
        if (known !== undefined) return literal(known);
        names.push(name);
        return '([\\s\\S]+?)';
      })
      .join('');
    const found = new RegExp(`^${source}$`).exec(actual);
    if (!found) problems.push(`${at}: expected ${JSON.stringify(pattern)}, got ${JSON.stringify(actual)}`);
    else for (const [i, name] of names.entries()) values.set(name, found[i + 1]!);
    return;
  }
  if (Array.isArray(pattern)) {
    if (!Array.isArray(actual)) {
      problems.push(`${at}: expected a list, got ${JSON.stringify(actual)}`);
      return;
    }
    const open = pattern.at(-1) === '…';
    const items = open ? pattern.slice(0, -1) : pattern;
    if (open ? actual.length < items.length : actual.length !== items.length) {
      problems.push(`${at}: expected ${open ? 'at least ' : ''}${items.length} items, got ${actual.length}`);
    }
    for (const [i, item] of items.entries()) match(item, actual[i], `${at}[${i}]`, values, problems);
    return;
  }
  if (pattern !== null && typeof pattern === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      problems.push(`${at}: expected an object, got ${JSON.stringify(actual)}`);
      return;
    }
    for (const [key, value] of Object.entries(pattern)) {
      if (!Object.hasOwn(actual, key)) problems.push(`${at}.${key}: missing`);
      else match(value, (actual as Record<string, unknown>)[key], `${at}.${key}`, values, problems);
    }
    return;
  }
  if (pattern !== actual)
    problems.push(`${at}: expected ${JSON.stringify(pattern)}, got ${JSON.stringify(actual)}`);
}

const fill = (text: string, values: Map<string, string>) =>
  text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => {
    const value = values.get(name);
    if (value === undefined) throw new Error(`${whole} is used before a response gave it`);
    return value;
  });

const examples = examplesOf(page);
type Operation = {
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, unknown>;
};
type Document = { paths: Record<string, Record<string, Operation>>; components: object };

/** The document's operation for `method path`, if it has one. */
function operationOf(document: Document, method: string, path: string): Operation | undefined {
  const bare = path.split('?')[0]!;
  const template = Object.keys(document.paths).find((t) =>
    new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(bare),
  );
  return template ? document.paths[template]?.[method.toLowerCase()] : undefined;
}

/** The document's schema for the body of `method path`, as a validator; none when it takes no body. */
function bodyCheck(document: Document, method: string, path: string) {
  const schema = operationOf(document, method, path)?.requestBody?.content['application/json']?.schema;
  if (!schema) return undefined;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  return ajv.compile({
    $id: 'https://roundkeeper.invalid/openapi.json',
    ...schema,
    components: document.components,
  });
}

let app: FastifyInstance;
let origin: string;
let document: Document;
beforeAll(async () => {
  ({ app } = await memoryApp({
    version: '0.1.0',
  }));
  origin = await app.listen({ port: 0, host: '127.0.0.1' });
  document = (await (await fetch(`${origin}/api/openapi.json`)).json()) as Document;
});
afterAll(async () => {
  await app.close();
});

describe("docs/api.md's examples get the documented responses from a running server", () => {
  it('has examples, each a request and its response', () => {
    expect(examples.length).toBeGreaterThanOrEqual(10);
  });

  const values = new Map<string, string>();
  for (const [i, example] of examples.entries()) {
    const request = message(example.request);
    it(`${i + 1}. ${request.start}`, async () => {
      const [method, path] = request.start.split(' ');
      const headers: Record<string, string> = {};
      for (const [name, value] of request.headers) headers[name] = fill(value, values);
      const body = request.body ? fill(request.body, values) : undefined;
      const res = await fetch(`${origin}${fill(path!, values)}`, {
        method: method!,
        headers,
        ...(body ? { body } : {}),
      });
      const text = await res.text();
      const expected = message(example.response);
      const problems: string[] = [];
      const status = Number(expected.start.split(' ')[1]);
      if (res.status !== status) problems.push(`status: expected ${status}, got ${res.status}: ${text}`);
      for (const [name, value] of expected.headers) {
        match(value, res.headers.get(name) ?? undefined, `header ${name}`, values, problems);
      }
      if (expected.body) {
        const json = (res.headers.get('content-type') ?? '').startsWith('application/json');
        match(
          json ? JSON.parse(expected.body) : expected.body,
          json ? JSON.parse(text) : text.trim(),
          'body',
          values,
          problems,
        );
      } else if (text !== '') problems.push(`body: expected none, got ${text}`);
      expect(problems).toEqual([]);
      // The document lists the status this route answered with.
      const operation = operationOf(document, method!, fill(path!, values));
      if (path !== '/api/nope') {
        expect(operation, `${method} ${path} in the document`).toBeDefined();
        expect(Object.keys(operation?.responses ?? {})).toContain(String(res.status));
      }
      // The document describes the body as the route reads it: one the route refused as invalid fails
      // the document's schema, and one it took passes.
      const check = bodyCheck(document, method!, fill(path!, values));
      if (body && check) {
        const refused = res.status === 400 && text.includes('"request/invalid"');
        expect(check(JSON.parse(body)), JSON.stringify(check.errors)).toBe(!refused);
      }
    });
  }
});

describe('the example reader', () => {
  const check = (pattern: unknown, actual: unknown, values = new Map<string, string>()) => {
    const problems: string[] = [];
    match(pattern, actual, 'body', values, problems);
    return problems;
  };

  it('passes what the documented response says, and notes its values', () => {
    const values = new Map<string, string>();
    expect(
      check({ a: 'x/{{id}}?t=…', n: [1, '…'] }, { a: 'x/Q1?t=zz', n: [1, 2, 3], more: true }, values),
    ).toEqual([]);
    expect(values.get('id')).toBe('Q1');
    expect(check('{{id}}', 'Q1', values)).toEqual([]);
  });

  it('fails a response that differs', () => {
    expect(check({ a: 1 }, { a: 2 })).toHaveLength(1);
    expect(check({ a: 1 }, {})).toEqual(['body.a: missing']);
    expect(check([1, 2], [1, 2, 3])).toHaveLength(1);
    expect(check('x…', 'yx')).toHaveLength(1);
    expect(check('{{id}}', 'Q2', new Map([['id', 'Q1']]))).toHaveLength(1);
  });
});
