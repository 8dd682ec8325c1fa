// `digest publish` and `digest email` without the CLI: read editions from the store, render, write through the port.
import { join, relative } from 'node:path';
import type { EmailConfig } from '../config/publish-schema.js';
import type { FileSystem } from '../core/ports.js';
import { applyTranslation } from '../core/translation.js';
import { type Edition, editionRevision } from '../core/types.js';
import { revisionPath } from '../core/urls.js';
import { renderEditionHtml } from '../publish/edition-html.js';
import { type RenderedEmail, writeEmailFiles } from '../publish/email-files.js';
import type { FetchImagesOptions, ImageMap } from '../publish/item-images.js';
import { loadEdition } from '../publish/load-edition.js';
import { type PublishSiteInput, publishSite } from '../publish/publish-site.js';
import type { SenderOptions } from '../publish/sender-identity.js';
import { swapSite } from '../publish/site-swap.js';
import type { SiteCountedLink } from '../publish/types.js';
import { writeFiles } from '../publish/write-site.js';
import type { Store } from '../store/types.js';

export interface PublishEditionInput extends SenderOptions {
  store: Pick<Store, 'editions' | 'translations' | 'revisions'>;
  fs: FileSystem;
  outDir: string;
  date: string;
  /** When the edition is marked published, if it is not yet; later runs keep that first time. */
  now: Date;
  site: SiteSettings;
  email: Pick<EmailConfig, 'from' | 'to' | 'unsubscribeUrl'> & {
    /**
     * Also write these weeks' email files ('all': every published edition's), not only this one's: a copy of the
     * site written from the store (another instance's folder) has no publish of those weeks to carry their files
     * over from — none at all in a new folder, or those published since its last copy.
     */
    alsoWeeks?: readonly string[] | 'all';
  };
  /** Fetch item images once through this guarded client and publish them with the site; without it: no images. */
  fetchImages?: FetchImagesOptions;
}

/** What the site is: where it lives, its name, its feeds' length, its form and its languages. */
interface SiteSettings {
  baseUrl: string;
  siteName?: string;
  feedLimit?: number;
  /**
   * config server.subscribeForm: the form in every page (true, or `{ clicks }` saying how clicks are counted), in
   * none (false), or a slot for `digest serve`.
   */
  subscribeForm?: PublishSiteInput['subscribeForm'];
  /** Configured languages, the written one first: each translated one gets its own section of the site. */
  languages?: readonly string[];
  /** Counted links (analytics.site): the edition pages' item links through the service's /r/. */
  countedLink?: SiteCountedLink | undefined;
}

export interface PublishEditionResult {
  edition: Edition;
  /** The languages the site was published in, the written one first. */
  languages: string[];
  /** True when this run marked it published (false: it already was). */
  newlyPublished: boolean;
  /** Published editions the site was built from. */
  editions: number;
  files: string[];
  bytes: number;
  email: RenderedEmail;
  /** Item images that could not be published (those items show none). */
  warnings: string[];
}

/** Each configured language's published editions, translation laid over; languages with none are left out. */
export async function translatedEditions(
  store: Pick<Store, 'translations'>,
  editions: readonly Edition[],
  languages: readonly string[],
): Promise<Map<string, Edition[]>> {
  const wanted = new Set(languages.slice(1));
  const byLanguage = new Map<string, Edition[]>();
  if (wanted.size === 0) return byLanguage;
  for (const edition of editions) {
    for (const { translation } of await store.translations.list(edition.date)) {
      if (!wanted.has(translation.language)) continue;
      const list = byLanguage.get(translation.language) ?? [];
      list.push(applyTranslation(edition, translation));
      byLanguage.set(translation.language, list);
    }
  }
  return byLanguage;
}

/**
 * Marks the edition published (once: a rerun keeps the first time, so it rewrites the same bytes), then writes the
 * whole site from every published edition in the store, and the edition's email files.
 */
export async function publishEdition(input: PublishEditionInput): Promise<PublishEditionResult> {
  let edition = await loadEdition(input.store, input.date);
  const newlyPublished = !edition.publishedAt;
  if (newlyPublished) {
    await input.store.editions.markPublished(input.date, input.now.toISOString());
    edition = await loadEdition(input.store, input.date);
  }
  const summaries = (await input.store.editions.list()).filter((summary) => summary.publishedAt);
  const editions: Edition[] = [];
  for (const summary of summaries) {
    editions.push(summary.date === edition.date ? edition : await loadEdition(input.store, summary.date));
  }
  const { site: settings } = input;
  const languages = settings.languages ?? [];
  const translated = await translatedEditions(input.store, editions, languages);
  // Everything goes to a staging copy that replaces the live site at once (publish/site-swap.ts).
  const written = await swapSite(input.outDir, async (staging) => {
    const into = { ...input, outDir: staging };
    const site = await publishSite({
      fs: input.fs,
      outDir: staging,
      editions,
      baseUrl: settings.baseUrl,
      ...(settings.siteName ? { siteName: settings.siteName } : {}),
      ...(settings.feedLimit ? { feedLimit: settings.feedLimit } : {}),
      ...(input.fetchImages ? { fetchImages: input.fetchImages } : {}),
      ...(settings.subscribeForm !== undefined ? { subscribeForm: settings.subscribeForm } : {}),
      ...(languages.length
        ? { languages: { configured: languages, ...(translated.size ? { translated } : {}) } }
        : {}),
      countedLink: settings.countedLink,
      look: input.sender,
    });
    const revisions = await writeRevisionPages(into, editions);
    const email = await writeEmails({ input: into, edition, translated, images: site.images });
    const also = input.email.alsoWeeks ?? [];
    const others = editions.filter(
      (other) => other.date !== edition.date && (also === 'all' || also.includes(other.date)),
    );
    for (const other of others) {
      email.files.push(
        ...(await writeEmails({ input: into, edition: other, translated, images: site.images })).files,
      );
    }
    const live = (path: string) => join(input.outDir, relative(staging, path));
    return { site, email, files: [...site.files, ...revisions, ...email.files].map(live) };
  });
  const { site, email } = written;
  return {
    edition,
    languages: [languages[0] ?? 'en', ...translated.keys()],
    newlyPublished,
    editions: editions.length,
    files: written.files,
    bytes: site.bytes,
    email: email.email,
    warnings: site.warnings,
  };
}

/** Every earlier revision of each corrected edition, as readers had it, at `<date>-r<n>/` (kept readable). */
async function writeRevisionPages(input: PublishEditionInput, editions: Edition[]): Promise<string[]> {
  const pages = new Map<string, string>();
  const options = {
    baseUrl: input.site.baseUrl,
    ...(input.site.siteName ? { siteName: input.site.siteName } : {}),
    // analytics.site: an earlier revision's items through /r/ too, each token naming that revision.
    countedLink: input.site.countedLink,
    look: input.sender,
  };
  for (const edition of editions) {
    for (const correction of edition.corrections ?? []) {
      const earlier = await input.store.revisions.get(edition.date, correction.revision - 1);
      if (!earlier) continue;
      pages.set(
        `${revisionPath(edition.date, correction.revision - 1)}index.html`,
        renderEditionHtml(earlier, {
          ...options,
          supersededBy: { revision: correction.revision - 1, current: editionRevision(edition) },
        }),
      );
    }
  }
  return pages.size ? writeFiles(input.fs, input.outDir, pages) : [];
}

/** The edition's email files, and its mail in each translated language, in that language's section (de/2026-05-04/email.html). */
async function writeEmails({
  input,
  edition,
  translated,
  images,
}: {
  input: PublishEditionInput;
  edition: Edition;
  translated: Map<string, Edition[]>;
  images: ImageMap;
}): Promise<{ files: string[]; email: RenderedEmail }> {
  const { baseUrl } = input.site;
  const email = await writeEmailFiles({
    fs: input.fs,
    outDir: input.outDir,
    edition,
    options: {
      email: input.email,
      baseUrl,
      images,
      sender: input.sender,
    },
  });
  const files = [...email.files];
  for (const [language, list] of translated) {
    const version = list.find((entry) => entry.date === edition.date);
    if (!version) continue;
    const localised = await writeEmailFiles({
      fs: input.fs,
      outDir: join(input.outDir, language),
      edition: version,
      options: {
        email: input.email,
        sender: input.sender,
        baseUrl: `${baseUrl.replace(/\/?$/, '/')}${language}/`,
        // No images: they are published once, at the site's root, not under the language's section.
        language,
      },
    });
    files.push(...localised.files);
  }
  return { files, email: email.email };
}
