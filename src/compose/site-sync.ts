// On PostgreSQL each `digest serve` instance serves the published site from its own folder, written from the store:
// at start-up (before it listens, so /healthz is never ok on an old site) and again whenever the store's site
// generation moves past the one it serves — a publish, a correction or a scheduled publish on any instance, seen
// by a one-row query a second. The copy goes through the publish's swap, so readers only ever see whole
// generations. PGlite has one process, whose publishes write its folder directly: nothing runs there.
import { errorMessage } from '../core/errors.js';
import type { DigestDeps } from '../deps.js';
import * as editions from '../editions/index.js';

export interface SiteSync {
  /** The generation this instance's folder holds (null: none yet), and whether the last attempt to catch up failed. */
  served(): { generation: number | null; failing: boolean };
  stop(): Promise<void>;
}

export interface SiteSyncOptions {
  siteDir: string;
  /** How often the generation is read (default 1 s). */
  intervalMs?: number;
}

/** Writes the current generation now (a failure is logged and retried), then follows the store until stopped. */
export async function startSiteSync(deps: DigestDeps, options: SiteSyncOptions): Promise<SiteSync> {
  const intervalMs = options.intervalMs ?? 1_000;
  let generation: number | null = null;
  let failing: string | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const catchUp = async () => {
    try {
      const current = await deps.store.siteGenerations.current();
      if (current && current.generation !== generation) {
        const copy = await editions.writePublishedSite(deps, { outDir: options.siteDir, after: generation });
        generation = copy.generation;
        deps.log.info(`site: serving generation ${generation} (${copy.files} files) from the store`);
      }
      failing = null;
    } catch (error) {
      const message = errorMessage(error);
      // Once per distinct failure: a database that is down for a minute is one line, not sixty.
      if (message !== failing)
        deps.log.warn(`site: could not write the published site from the store: ${message}`);
      failing = message;
    }
  };
  const tick = () => {
    running = catchUp().finally(() => {
      if (!stopped) timer = setTimeout(tick, intervalMs).unref();
    });
  };

  await catchUp();
  // Nothing published yet: the publish path loads now, in the background, not when a reader waits for a new week.
  if (generation === null) editions.loadPublishedSite().catch(() => undefined);
  if (!stopped) timer = setTimeout(tick, intervalMs).unref();
  return {
    served: () => ({ generation, failing: failing !== null }),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
