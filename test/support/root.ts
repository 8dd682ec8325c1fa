// The server as `digest serve` composes it (the root's service: createDigest(deps).service()), on a test store: for
// tests that drive routes with app.request() or put the app on loopback.
import { createDigest } from '../../src/compose/create-digest.js';
import { parseConfig } from '../../src/config/load-config.js';
import { type Clock, systemClock } from '../../src/core/clock.js';
import { createHttpClient } from '../../src/net/http-client.js';
import { nodeFileSystem } from '../../src/publish/write-site.js';
import type { ServerApp } from '../../src/server/index.js';
import type { Store } from '../../src/store/types.js';

const SECRET = 'a-test-secret-of-at-least-32-bytes-long!';
const silent = { info: () => {}, warn: () => {}, debug: () => {} };

export async function composedApp(options: {
  store: Store;
  siteDir: string;
  /** The digest.config fields the test needs (publish.baseUrl, languages, server limits…). */
  config: Record<string, unknown>;
  /** The digest's clock (default: the wall clock). */
  clock?: Clock;
}): Promise<ServerApp> {
  const digest = createDigest({
    config: parseConfig(options.config),
    store: options.store,
    http: createHttpClient({ timeoutMs: 1000, maxBytes: 1024, retries: 0 }),
    clock: options.clock ?? systemClock,
    log: silent,
    fs: nodeFileSystem,
    env: { DIGEST_SECRET: SECRET },
  });
  return (await digest.service({ siteDir: options.siteDir, requestLog: () => {} })).app;
}
