// The archive's read-only use cases, shared by the JSON API (server/api-routes.ts) and the MCP server (app/mcp.ts):
// published editions only (a draft is never shown), every item with its source link and dates so a reader or an
// agent can cite it. Inputs arrive parsed by the schemas in api-schemas.ts.
import type { EditionItem, TakeawaySource } from '../core/types.js';
import { absoluteUrl, itemAnchor, safeUrl } from '../publish/_html.js';
import { renderEditionMarkdown } from '../publish/markdown.js';
import { DEFAULT_TOPICS } from '../select/default-topics.js';
import type { EditionSummary, EditionsPort, PublishedItem, SearchPort } from '../store/types.js';
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

export const API_BASE = '/api/v1';
/** The archive API's own version (OpenAPI info.version, the MCP server's version): changes with its shapes. */
export const API_VERSION = '1.0.0';

export interface ArchiveDeps {
  store: Pick<EditionsPort, 'getEdition'> & SearchPort;
  /** The published site's address (publish.baseUrl): page links and permalinks are absolute under it. */
  baseUrl?: string | undefined;
}

export interface Archive {
  listEditions(input: ListEditionsInput): Promise<EditionsPage>;
  /** The published edition of that date, or null (none, or not published). */
  getEdition(date: string): Promise<EditionAnswer | null>;
  getItem(key: string): Promise<ItemAnswer | null>;
  searchItems(input: SearchItemsInput): Promise<SearchAnswer>;
  /** The published edition as Markdown (the same renderer as edition.md), or null. */
  editionMarkdown(date: string): Promise<string | null>;
}

function apiSource(source: TakeawaySource | null): TakeawaySource | null {
  return source ? { ...source, url: safeUrl(source.url) } : null;
}

export function createArchive(deps: ArchiveDeps): Archive {
  const { store } = deps;
  const pageUrl = (date: string) => absoluteUrl(deps.baseUrl, `${date}/`);

  function summary(edition: EditionSummary & { publishedAt: string }): EditionSummaryAnswer {
    return {
      date: edition.date,
      name: edition.name,
      title: edition.title,
      itemCount: edition.itemCount,
      publishedAt: edition.publishedAt,
      links: { page: pageUrl(edition.date), api: `${API_BASE}/editions/${edition.date}` },
    };
  }

  function toApiItem(
    item: PublishedItem & Partial<Pick<EditionItem, 'readFrom' | 'support' | 'facts'>>,
    anchor: string,
  ): ApiItem {
    const page = pageUrl(item.editionDate);
    return {
      // Editions keep these (search rows do not): the edition answer carries them, an item looked up alone does not.
      ...(item.readFrom ? { readFrom: item.readFrom } : {}),
      ...(item.support ? { takeawaySources: item.support.map(apiSource) } : {}),
      ...(item.facts?.length
        ? { facts: item.facts.map((fact) => ({ ...fact, url: safeUrl(fact.url) })) }
        : {}),
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

  async function publishedEdition(date: string) {
    const edition = await store.getEdition(date);
    return edition?.publishedAt ? { ...edition, publishedAt: edition.publishedAt } : null;
  }

  return {
    async listEditions({ page, limit }) {
      const { editions, total } = await store.listPublishedEditions({ limit, offset: (page - 1) * limit });
      return {
        editions: editions.flatMap((edition) =>
          edition.publishedAt ? [summary({ ...edition, publishedAt: edition.publishedAt })] : [],
        ),
        page,
        limit,
        total,
        nextPage: page * limit < total ? page + 1 : null,
      };
    },

    async getEdition(date) {
      const edition = await publishedEdition(date);
      if (!edition) return null;
      const taken = new Set<string>();
      return {
        ...summary({ ...edition, itemCount: edition.items.length }),
        intro: edition.intro,
        items: edition.items.map((item, position) =>
          toApiItem(
            { ...item, editionDate: edition.date, position, sources: item.sources },
            itemAnchor(item.title, position, taken),
          ),
        ),
      };
    },

    async getItem(key) {
      const versions = await store.publishedItem(key);
      const newest = versions[0];
      if (!newest) return null;
      return {
        item: toApiItem(newest, anchorOf(newest)),
        editions: versions.map((version) => {
          const { edition } = toApiItem(version, anchorOf(version));
          return edition;
        }),
      };
    },

    async searchItems(input) {
      const offset = input.cursor ? Number(input.cursor) : 0;
      const topic = input.topic ? DEFAULT_TOPICS.find((group) => group.name === input.topic) : undefined;
      // One more than asked tells whether a next page exists.
      const hits = await store.searchItems({
        text: input.q,
        ...(input.from ? { from: input.from } : {}),
        ...(input.to ? { to: input.to } : {}),
        ...(input.level ? { level: input.level } : {}),
        ...(input.source ? { source: input.source } : {}),
        ...(topic ? { anyOfPhrases: topic.terms } : {}),
        limit: input.limit + 1,
        offset,
      });
      const page = hits.slice(0, input.limit);
      const next = offset + input.limit;
      return {
        query: input.q,
        results: page.map((hit) => ({ ...toApiItem(hit, anchorOf(hit)), rank: hit.rank })),
        limit: input.limit,
        nextCursor: hits.length > input.limit && next <= API_LIMITS.maxOffset ? String(next) : null,
      };
    },

    async editionMarkdown(date) {
      const edition = await publishedEdition(date);
      if (!edition) return null;
      return renderEditionMarkdown(edition, {
        pageUrl: pageUrl(date),
        siteUrl: deps.baseUrl ?? null,
      });
    },
  };
}
