// The archive's read-only use cases, shared by the JSON API (server/api-routes.ts) and the MCP server (api/mcp.ts):
// published editions only (a draft is never shown), every item with its source link and dates so a reader or an
// agent can cite it. Inputs arrive parsed by the schemas in api-schemas.ts.

import { itemAnchor } from '../core/anchors.js';
import type { EditionSummary } from '../core/ports.js';
import { applyTranslation } from '../core/translation.js';
import type { Edition, EditionItem, EditionTranslation, TakeawaySource } from '../core/types.js';
import { absoluteUrl, revisionPath, safeUrl } from '../core/urls.js';
import { renderEditionMarkdown } from '../publish/markdown.js';
import { topicTerms } from '../select/topic-match.js';
import type { PublishedItem } from '../store/search.js';
import type { Store } from '../store/types.js';
import {
  API_LIMITS,
  type ApiItem,
  type EditionAnswer,
  type EditionSummaryAnswer,
  type EditionsPage,
  type ItemAnswer,
  type ListEditionsInput,
  type SearchAnswer,
  type SearchItemsInput,
} from './api-schemas.js';

type TranslatedItems = EditionTranslation['items'];

export const API_BASE = '/api/v1';
/** The archive API's own version (OpenAPI info.version, the MCP server's version): changes with its shapes. */
export const API_VERSION = '1.0.0';

export interface ArchiveDeps {
  store: Pick<Store, 'editions' | 'search' | 'translations'>;
  /** The published site's address (publish.baseUrl): page links and permalinks are absolute under it. */
  baseUrl?: string | undefined;
  /** Configured languages, the written one first. */
  languages?: readonly string[];
}

export interface Archive {
  listEditions(input: ListEditionsInput): Promise<EditionsPage>;
  /** The published edition of that date (in `language` when given), or null (none, not published, no such translation). */
  getEdition(date: string, language?: string): Promise<EditionAnswer | null>;
  getItem(key: string): Promise<ItemAnswer | null>;
  searchItems(input: SearchItemsInput): Promise<SearchAnswer>;
  /** The published edition as Markdown (the same renderer as edition.md), or null. */
  editionMarkdown(date: string, language?: string): Promise<string | null>;
}

function apiSource(source: TakeawaySource | null): TakeawaySource | null {
  return source ? { ...source, url: safeUrl(source.url) } : null;
}

type ArchiveStore = ArchiveDeps['store'];

/** Where an edition stands on the site, per language. */
interface SiteSections {
  written: string | undefined;
  /** A configured language other than the written one: its section of the site ("de/"); else "". */
  section(language?: string): string;
  pageUrl(date: string, language?: string): string | null;
}

function siteSections(deps: ArchiveDeps): SiteSections {
  const written = deps.languages?.[0];
  const section = (language?: string) =>
    language && language !== written && deps.languages?.includes(language) ? `${language}/` : '';
  return {
    written,
    section,
    pageUrl: (date, language) => absoluteUrl(deps.baseUrl, `${section(language)}${date}/`),
  };
}

function summary(
  sections: SiteSections,
  edition: EditionSummary & { publishedAt: string },
  language?: string,
): EditionSummaryAnswer {
  const query = sections.section(language) ? `?lang=${encodeURIComponent(language!)}` : '';
  return {
    date: edition.date,
    name: edition.name,
    title: edition.title,
    itemCount: edition.itemCount,
    publishedAt: edition.publishedAt,
    links: {
      page: sections.pageUrl(edition.date, language),
      api: `${API_BASE}/editions/${edition.date}${query}`,
    },
  };
}

/** The current revision and every one before it (their pages beside the edition page's, `<date>-r<n>/`). */
function revisionsOf(
  edition: Pick<Edition, 'date' | 'corrections'> & { publishedAt: string },
  page: string | null,
): Pick<EditionAnswer, 'revision' | 'revisions'> {
  const corrections = edition.corrections ?? [];
  const current = corrections.length + 1;
  const pageOf = (revision: number) =>
    revision === current
      ? page
      : (page?.replace(`${edition.date}/`, revisionPath(edition.date, revision)) ?? null);
  const revisions = [
    { revision: 1, publishedAt: edition.publishedAt, reason: null, page: pageOf(1) },
    ...corrections.map((correction) => ({
      revision: correction.revision,
      publishedAt: correction.at,
      reason: correction.reason,
      page: pageOf(correction.revision),
    })),
  ];
  return { revision: current, revisions };
}

/** A search row, or an edition's item with what editions keep besides. */
type ArchivedItem = PublishedItem & Partial<Pick<EditionItem, 'readFrom' | 'support' | 'facts'>>;

function toApiItem(item: ArchivedItem, anchor: string, page: string | null): ApiItem {
  return {
    // Editions keep these (search rows do not): the edition answer carries them, an item looked up alone does not.
    ...(item.readFrom ? { readFrom: item.readFrom } : {}),
    ...(item.support ? { takeawaySources: item.support.map(apiSource) } : {}),
    ...(item.facts?.length ? { facts: item.facts.map((fact) => ({ ...fact, url: safeUrl(fact.url) })) } : {}),
    key: item.key,
    title: item.title,
    url: safeUrl(item.url),
    level: item.level,
    authors: item.authors,
    summary: item.summary,
    takeaways: item.takeaways,
    source: item.source,
    sources: item.sources,
    publishedAt: item.publishedAt,
    edition: {
      date: item.editionDate,
      position: item.position + 1,
      permalink: page ? `${page}#${anchor}` : null,
    },
  };
}

// A search row knows its own title only: its anchor is the page's unless two titles of one edition collide.
const anchorOf = (item: PublishedItem) => itemAnchor(item.title, item.position, new Set());

async function publishedEdition({
  store,
  sections,
  date,
  language,
}: {
  store: ArchiveStore;
  sections: SiteSections;
  date: string;
  language?: string | undefined;
}) {
  const edition = await store.editions.get(date);
  if (!edition?.publishedAt) return null;
  const published = { ...edition, publishedAt: edition.publishedAt };
  if (!language || language === sections.written) return published;
  if (!sections.section(language)) return null;
  const stored = (await store.translations.list(date)).find(
    (entry) => entry.translation.language === language,
  );
  return stored
    ? { ...applyTranslation(published, stored.translation), publishedAt: edition.publishedAt }
    : null;
}

/**
 * Search hits with their text in `language` where the edition has that translation (the search itself runs over the
 * written text); a hit without one stays as written.
 */
async function inLanguage<T extends PublishedItem>(
  store: ArchiveStore,
  hits: T[],
  language: string | undefined,
): Promise<T[]> {
  const byDate = new Map<string, Promise<TranslatedItems | undefined>>();
  const translated = (date: string) => {
    let found = byDate.get(date);
    if (!found) {
      found = store.translations
        .list(date)
        .then((all) => all.find((entry) => entry.translation.language === language)?.translation.items);
      byDate.set(date, found);
    }
    return found;
  };
  return Promise.all(
    hits.map(async (hit) => {
      const text = (await translated(hit.editionDate))?.[hit.key];
      return text ? { ...hit, summary: text.summary, takeaways: text.takeaways } : hit;
    }),
  );
}

export function createArchive(deps: ArchiveDeps): Archive {
  const { store } = deps;
  const sections = siteSections(deps);
  const itemOf = (item: ArchivedItem, anchor: string, language?: string) =>
    toApiItem(item, anchor, sections.pageUrl(item.editionDate, language));

  return {
    async listEditions({ page, limit }) {
      const { editions, total } = await store.search.publishedEditions({ limit, offset: (page - 1) * limit });
      return {
        editions: editions.flatMap((edition) =>
          edition.publishedAt ? [summary(sections, { ...edition, publishedAt: edition.publishedAt })] : [],
        ),
        page,
        limit,
        total,
        nextPage: page * limit < total ? page + 1 : null,
      };
    },

    async getEdition(date, language) {
      const edition = await publishedEdition({ store, sections, date, language });
      if (!edition) return null;
      const taken = new Set<string>();
      const answer = summary(sections, { ...edition, itemCount: edition.items.length }, language);
      return {
        ...answer,
        language: language ?? sections.written ?? 'en',
        intro: edition.intro,
        ...revisionsOf(edition, answer.links.page),
        items: edition.items.map((item, position) =>
          itemOf(
            { ...item, editionDate: edition.date, position, sources: item.sources },
            itemAnchor(item.title, position, taken),
            language,
          ),
        ),
      };
    },

    async getItem(key) {
      const versions = await store.search.publishedItem(key);
      const newest = versions[0];
      if (!newest) return null;
      return {
        item: itemOf(newest, anchorOf(newest)),
        editions: versions.map((version) => itemOf(version, anchorOf(version)).edition),
      };
    },

    async searchItems(input) {
      const offset = input.cursor ? Number(input.cursor) : 0;
      // One more than asked tells whether a next page exists.
      const hits = await store.search.items({ ...searchFilters(input), limit: input.limit + 1, offset });
      const shown = hits.slice(0, input.limit);
      const page = sections.section(input.lang) ? await inLanguage(store, shown, input.lang) : shown;
      const next = offset + input.limit;
      return {
        query: input.q,
        results: page.map((hit) => ({ ...itemOf(hit, anchorOf(hit), input.lang), rank: hit.rank })),
        limit: input.limit,
        nextCursor: hits.length > input.limit && next <= API_LIMITS.maxOffset ? String(next) : null,
      };
    },

    async editionMarkdown(date, language) {
      const edition = await publishedEdition({ store, sections, date, language });
      if (!edition) return null;
      return renderEditionMarkdown(edition, {
        pageUrl: sections.pageUrl(date, language),
        siteUrl: deps.baseUrl ?? null,
      });
    },
  };
}

/** The store's search filters from the API's input (only those given). */
function searchFilters(input: SearchItemsInput) {
  const terms = input.topic ? topicTerms(input.topic) : undefined;
  return {
    text: input.q,
    ...(input.from ? { from: input.from } : {}),
    ...(input.to ? { to: input.to } : {}),
    ...(input.level ? { level: input.level } : {}),
    ...(input.source ? { source: input.source } : {}),
    ...(terms ? { anyOfPhrases: terms } : {}),
  };
}
