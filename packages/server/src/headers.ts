import type { IncomingMessage } from 'node:http';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { hashToken, TOKEN_PATTERN } from './links.js';
import type { Storage } from './storage/storage.js';

export interface HeaderOptions {
  storage: Storage;
  /**
   * Origins whose pages may embed the table's and the players' pages (`--frame-ancestors`). Empty: no
   * page may be framed by anyone. The GM's page, and every other, is never framed.
   */
  frameAncestors?: readonly string[];
}

/** A page of the web app opened with a link: `/e/<encounter>?token=…`. */
const PAGE = /^\/e\/([A-Za-z0-9]{1,40})\/?(?:\?|$)/;

/**
 * Security headers on every answer, by @fastify/helmet: the content security policy (scripts and
 * connections to this origin only, no framing), no referrer, same-origin opener and resources, nosniff,
 * and helmet's other defaults (HSTS without subdomains, which a self-hosted server cannot speak for);
 * plus a permissions policy (no camera, microphone or location) and `no-store` on the API.
 *
 * With `frameAncestors`, a table's or a player's page (its link is looked up: a GM's token, a revoked one
 * or one for another encounter does not count) may be framed by those origins: its CSP names them in
 * `frame-ancestors` and it has no X-Frame-Options (which cannot name origins).
 */
export async function registerSecurityHeaders(app: FastifyInstance, options: HeaderOptions): Promise<void> {
  const ancestors = options.frameAncestors ?? [];
  const framable = new WeakSet<IncomingMessage>();
  if (ancestors.length > 0) {
    // Before helmet's hooks, which write the headers as the request comes in.
    app.addHook('onRequest', async (req) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return;
      const page = PAGE.exec(req.url);
      if (!page) return;
      const token = new URL(req.url, 'http://x').searchParams.get('token');
      if (!token || !TOKEN_PATTERN.test(token)) return;
      const link = await options.storage.findLink(hashToken(token));
      if (link && !link.revoked && link.encounterId === page[1] && link.role !== 'gm') framable.add(req.raw);
    });
  }
  const frameAncestors = (req: IncomingMessage) => (framable.has(req) ? ancestors.join(' ') : "'none'");
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        frameAncestors: [frameAncestors],
        baseUri: ["'none'"],
        formAction: ["'self'"],
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: false },
  });
  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=()');
    if (req.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
    if (framable.has(req.raw)) reply.raw.removeHeader('x-frame-options');
    return payload;
  });
}
