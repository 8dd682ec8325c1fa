// The thin IO layer: renderers produce strings, this puts them on disk through an injected FileSystem.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isIsoDay } from '../core/dates.js';
import { PublishError } from '../core/errors.js';
import type { EditionSummary, FileSystem } from '../core/ports.js';
import { compareText } from '../core/text.js';
import type { Edition } from '../core/types.js';
import { renderArchiveHtml } from './archive-html.js';
import { renderEditionHtml } from './edition-html.js';
import { renderEditionJson } from './edition-json.js';
import { type FetchImagesOptions, fetchItemImages } from './item-images.js';
import type { SiteOptions } from './types.js';

export const nodeFileSystem: FileSystem = {
  async writeFile(path, data) {
    await writeFile(path, data);
  },
  async mkdir(path) {
    await mkdir(path, { recursive: true });
  },
};

/** Path → contents, relative to the output folder; the unit every site writer produces. */
export type SiteFiles = Map<string, string | Uint8Array>;

export async function writeFiles(fs: FileSystem, outDir: string, files: SiteFiles): Promise<string[]> {
  const made = new Set<string>();
  const written: string[] = [];
  for (const [relative, data] of [...files].sort(([a], [b]) => compareText(a, b))) {
    const path = join(outDir, relative);
    const folder = dirname(path);
    if (!made.has(folder)) {
      await fs.mkdir(folder);
      made.add(folder);
    }
    await fs.writeFile(path, data);
    written.push(path);
  }
  return written;
}

/** An edition's date names its folder, so it must be a plain YYYY-MM-DD. */
export function assertEditionDate(date: string): void {
  if (!isIsoDay(date))
    throw new PublishError(`Edition date "${date}" is not a YYYY-MM-DD day; refusing to use it as a folder.`);
}

export function summaryOf(edition: Edition): EditionSummary {
  return {
    date: edition.date,
    name: edition.name,
    title: edition.title,
    itemCount: edition.items.length,
    publishedAt: edition.publishedAt ?? null,
  };
}

/** The summaries with `edition` in them (replacing a stale entry of the same date), newest first. */
export function withEdition(editions: EditionSummary[], edition: Edition): EditionSummary[] {
  return [...editions.filter((entry) => entry.date !== edition.date), summaryOf(edition)].sort((a, b) =>
    compareText(b.date, a.date),
  );
}

/** What a build writes: `<date>/edition.json`, `<date>/index.html` and the front page `index.html`. */
export function editionFiles(
  edition: Edition,
  editions: EditionSummary[],
  options: SiteOptions = {},
): SiteFiles {
  assertEditionDate(edition.date);
  const all = withEdition(editions, edition);
  const isLatest = all[0]?.date === edition.date;
  return new Map([
    [`${edition.date}/edition.json`, renderEditionJson(edition)],
    [`${edition.date}/index.html`, renderEditionHtml(edition, options)],
    ['index.html', renderArchiveHtml(all, isLatest ? edition : null, options)],
  ]);
}

export interface WriteEditionOptions extends SiteOptions {
  /**
   * Fetch the edition's item images once through this guarded client and write them under img/; without it the
   * pages show no item images. Failures are warnings (logged through its logger), never a failed build.
   */
  fetchImages?: FetchImagesOptions;
}

export async function writeEditionFiles({
  fs,
  outDir,
  edition,
  editions,
  options = {},
}: {
  fs: FileSystem;
  outDir: string;
  edition: Edition;
  editions: EditionSummary[];
  options?: WriteEditionOptions;
}): Promise<string[]> {
  const { fetchImages, ...siteOptions } = options;
  const fetched = fetchImages ? await fetchItemImages([edition], fetchImages) : null;
  const files = editionFiles(edition, editions, {
    ...siteOptions,
    ...(fetched ? { images: fetched.images } : {}),
  });
  for (const [path, data] of fetched?.files ?? []) files.set(path, data);
  return writeFiles(fs, outDir, files);
}
