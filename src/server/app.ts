// The HTTP app of `digest serve`: the published site, /healthz, /metrics; routes parse input and call the use cases.
import { Hono } from 'hono';
import { API_BASE, API_VERSION, type Archive } from '../app/api.js';
import type { Digest } from '../app/create-digest.js';
import type { Desk } from '../app/index.js';
import { createApiRoutes } from './api-routes.js';
import { registerDeskRoutes } from './desk-routes.js';
import { createMcpRoute } from './mcp-route.js';
import { createDigestMetrics, type DigestMetrics, PROMETHEUS_CONTENT_TYPE } from './metrics.js';
import { type RequestVariables, requestLog } from './request-log.js';
import { securityHeaders } from './security-headers.js';
import { createSiteFiles, type SiteFiles } from './site-files.js';
import { createSiteHandler } from './site-routes.js';
import { subscriberRoutes } from './subscriber-routes.js';

export interface ServerDeps {
  /** The folder `digest publish` writes (front page, editions, archive, feeds, search). */
  siteDir: string;
  /** Resolves when the database answers; throws (or rejects) when it does not. */
  checkDatabase(): Promise<void>;
  metrics?: DigestMetrics;
  /** One JSON line per request and per server error (default: stdout). */
  log?: (line: string) => void;
  /** Trust X-Forwarded-For from a reverse proxy in front (config server.trustProxy). */
  trustProxy?: boolean;
  contentSecurityPolicy?: string;
  /** The file cache (tests pass their own to look inside). */
  siteFiles?: SiteFiles;
  /** Each published page passes through this once when read: `digest serve` fills the subscribe slot with it. */
  transformHtml?: (page: string) => string;
  /** The use cases behind the routes that take input (subscribe, unsubscribe…); without it only the site is served. */
  digest?: Digest;
  /** The published archive's use cases: with them, the JSON API (/api/v1) and the MCP server (/mcp) are served. */
  archive?: { archive: Archive; publicUrl?: string | undefined };
  /** The editor's desk use cases; when given, /admin serves the desk. */
  desk?: Desk;
}

export type ServerEnv = { Variables: RequestVariables };

export function createServerApp(deps: ServerDeps): Hono<ServerEnv> {
  const metrics = deps.metrics ?? createDigestMetrics();
  const log = deps.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const files =
    deps.siteFiles ??
    createSiteFiles({
      root: deps.siteDir,
      ...(deps.transformHtml ? { transformHtml: deps.transformHtml } : {}),
    });
  const app = new Hono<ServerEnv>();

  app.use('*', requestLog({ metrics, log, trustProxy: deps.trustProxy ?? false }));
  app.use('*', securityHeaders(deps.contentSecurityPolicy));

  app.get('/healthz', async (c) => {
    c.header('Cache-Control', 'no-store');
    try {
      await deps.checkDatabase();
      return c.json({ status: 'ok', database: 'ok' }, 200);
    } catch (error) {
      log(
        JSON.stringify({
          time: new Date().toISOString(),
          level: 'error',
          msg: 'health check failed',
          requestId: c.get('requestId'),
          error: error instanceof Error ? error.message : String(error),
        }),
      );
      // The reason stays in the log: a public health endpoint does not describe the database.
      return c.json({ status: 'error', database: 'unreachable' }, 503);
    }
  });

  app.get('/metrics', async (c) =>
    c.body(await metrics.registry.render(), 200, {
      'Content-Type': PROMETHEUS_CONTENT_TYPE,
      'Cache-Control': 'no-store',
    }),
  );

  const subscribers = deps.digest && subscriberRoutes({ digest: deps.digest, trustProxy: !!deps.trustProxy });
  if (subscribers) app.route('/', subscribers);
  if (deps.archive) {
    app.route(API_BASE, createApiRoutes({ archive: deps.archive.archive, version: API_VERSION }));
    app.route('/mcp', createMcpRoute({ ...deps.archive, version: API_VERSION }));
  }

  if (deps.desk) registerDeskRoutes(app, deps.desk, { trustProxy: deps.trustProxy ?? false });
  const site = createSiteHandler({ files });
  app.on(['GET', 'HEAD'], '/*', site);
  app.all('/*', (c) => c.json({ error: 'method-not-allowed' }, 405, { Allow: 'GET, HEAD' }));

  app.onError((error, c) => {
    log(
      JSON.stringify({
        time: new Date().toISOString(),
        level: 'error',
        msg: 'unhandled error',
        requestId: c.get('requestId'),
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
    );
    return c.json({ error: 'internal', requestId: c.get('requestId') }, 500);
  });
  return app;
}
