// The published site written again from the store, as it was published: what an instance does when another one
// published or corrected an edition (on PostgreSQL each instance serves the site from its own folder), and at
// start-up, before it answers /healthz. Publishing is deterministic, so the copy has the publishing instance's bytes;
// nothing in the store changes (the edition is published already, so its time stays), and no chat post is made.
import { resolveBaseUrl } from '../config/inputs.js';
import type { PublishDeps } from './ports.js';
import { publishedSiteInput } from './publish-and-email.js';
import { publishEdition } from './publish-edition.js';

export interface PublishedSiteCopy {
  /** The site's generation this folder now holds, or null when nothing is published yet (nothing written). */
  generation: number | null;
  files: number;
}

/**
 * Writes the current site generation into `outDir` (through the same swap as a publish: readers see it whole);
 * `after`: the generation the folder holds now, if it holds one.
 */
export async function writePublishedSite(
  deps: PublishDeps,
  input: { outDir: string; after?: number | null },
): Promise<PublishedSiteCopy> {
  const current = await deps.store.siteGenerations.current();
  if (!current) return { generation: null, files: 0 };
  // The mail files of weeks published since the folder's last copy (of every week in a new folder); the others'
  // are carried over from the live site, as a publish carries them.
  const after = input.after ?? null;
  const alsoWeeks = (after !== null ? await deps.store.siteGenerations.weeksAfter(after) : null) ?? 'all';
  const published = publishedSiteInput(deps, resolveBaseUrl(undefined, deps.config.publish.baseUrl));
  const result = await publishEdition({
    ...published,
    email: { ...published.email, alsoWeeks },
    outDir: input.outDir,
    date: current.week,
    now: deps.clock.now(),
  });
  return { generation: current.generation, files: result.files.length };
}
