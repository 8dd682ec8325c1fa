// The ports a digest is built from. Every use case reads the outside world only through these, so the CLI, the
// server and tests can each supply their own (a fixed clock, a loopback HTTP client, a store on a test database).
import type { Config } from './config/config-schema.js';
import type { Clock } from './core/clock.js';
import type { FileSystem, HttpClient, Logger } from './core/ports.js';
import type { Store } from './store/types.js';

export { type Clock, systemClock } from './core/clock.js';

export interface DigestDeps {
  config: Config;
  store: Store;
  http: HttpClient;
  clock: Clock;
  log: Logger;
  fs: FileSystem;
  /** Where secrets (API keys, SMTP passwords) are read from, when a use case needs one. */
  env: NodeJS.ProcessEnv;
  /** Aborts work in flight (Ctrl-C, SIGTERM, a server shutting down). */
  signal?: AbortSignal;
}
