// The page a build leaves in `--out`: the edition's page and the site's list of editions, written by a build anew
// and again by one whose inputs are unchanged.
import { resolve } from 'node:path';
import type { Edition } from '../core/types.js';
import { siteOptions } from '../publish/site-options.js';
import { writeEditionFiles } from '../publish/write-site.js';
import type { BuildDeps } from './ports.js';

export const editionPagePath = (input: { outDir: string; week: string }) =>
  resolve(input.outDir, input.week, 'index.html');

/** The edition's page (and the site's list of editions) into `--out`. */
export async function writeEditionPage(
  deps: BuildDeps,
  input: { outDir: string },
  { edition, enriched }: { edition: Edition; enriched: boolean },
): Promise<void> {
  await writeEditionFiles({
    fs: deps.fs,
    outDir: input.outDir,
    edition,
    editions: await deps.store.editions.list(),
    options: {
      ...siteOptions(deps.config),
      // Item images are fetched (once, guarded) with the rest of the network enrichment; --no-enrich: no images.
      ...(enriched ? { fetchImages: { http: deps.http, log: deps.log } } : {}),
    },
  });
}
