import type { FastifyInstance } from 'fastify';

/** A route as Fastify registered it: its method and its path (`:id` style). */
export interface RegisteredRoute {
  method: string;
  url: string;
}

const registered = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** The routes registered on `app` since `registerOpenApi` (a test checks each is in the document). */
export function routesOf(app: FastifyInstance): readonly RegisteredRoute[] {
  return registered.get(app) ?? [];
}

/**
 * Serves the API's OpenAPI 3.1 description at `GET /api/openapi.json`, and keeps the list of the routes
 * registered after it. The document is built on its first request, from the routes' own zod schemas
 * (openapi-document.ts, loaded then), so a server that is never asked for it pays nothing for it.
 */
export function registerOpenApi(app: FastifyInstance, options: { version: string }): void {
  const routes: RegisteredRoute[] = [];
  registered.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url ?? route.path });
  });
  let document: string | undefined;
  app.get('/api/openapi.json', async (_req, reply) => {
    if (document === undefined) {
      const { openApiDocument } = await import('./openapi-document.js');
      document = JSON.stringify(openApiDocument(options.version));
    }
    return reply.type('application/json; charset=utf-8').send(document);
  });
}
