import { explainZodError, type Rejection, reject } from '@roundkeeper/engine';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HubError } from './hub.js';

/** An encounter id in an address. */
export const idParam = z.object({ id: z.string().regex(/^[A-Za-z0-9]{1,40}$/) });

/** Reads `data` with `schema`, or throws a 400 that says which field and why. */
export function parse<T>(schema: z.ZodType<T>, data: unknown, what: string): T {
  const r = schema.safeParse(data);
  if (!r.success) throw new HubError(400, reject('request/invalid', explainZodError(r.error, what)));
  return r.data;
}

/** The link token of a request: `Authorization: Bearer …`, else `?token=`. */
export function tokenOf(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (h?.startsWith('Bearer ')) return h.slice(7).trim();
  const q = (req.query as Record<string, unknown> | undefined)?.token;
  return typeof q === 'string' ? q : undefined;
}

export function errorBody(r: Rejection) {
  return { error: r };
}
