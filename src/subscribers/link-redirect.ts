// `/r/<token>`: a counted link. The token (click-tokens.ts) names an edition, its revision, the channel and an item;
// the answer is a 302 to that item's link as the stored revision has it — never a URL from the request, so /r/ is
// no open redirect. A forged or truncated token goes to the site's home, a good one whose edition, revision or item
// is not there (stale) to the edition's page; neither echoes the input. Counting happens after the answer is
// decided, in memory (click-counter.ts), so the database is never on the redirect's path once a revision is cached.
// A link once mailed works for good: with analytics "off" (switched off after a send) it still answers its item,
// and only counting stops.
import { analyticsMode } from '../config/analytics-schema.js';
import { systemTimer } from '../core/clock.js';
import { readerUrl } from '../core/ids.js';
import type { Edition } from '../core/types.js';
import { absoluteUrl, safeUrl } from '../core/urls.js';
import type { DigestDeps } from '../deps.js';
import type { Store } from '../store/types.js';
import { type ClickCounter, createClickCounter, type FetchVerdict } from './click-counter.js';
import { type ClickLink, type ClickTokens, digestClickTokens, itemKeyTag } from './click-tokens.js';
import { subscriptionSettings } from './subscription-settings.js';

export type ClickDeps = Pick<DigestDeps, 'config' | 'env' | 'clock' | 'log'> & {
  store: Pick<Store, 'clicks' | 'editions' | 'revisions'>;
};

export interface FollowRequest {
  token: string;
  method: string;
  userAgent: string | undefined;
  /** The client address, as the server's rate limits see it. */
  source: string;
}

export interface FollowAnswer {
  location: string;
  /** What was counted: a click, prefetched, not counted (rate limit), or nothing (a bad or stale token). */
  counted: FetchVerdict | 'none';
}

export interface LinkRedirect {
  follow(request: FollowRequest): Promise<FollowAnswer>;
  /** Writes the counts still held (the service's stop). */
  stop(): Promise<void>;
  /** The counter's memory, for /metrics and the benchmark. */
  held: ClickCounter['held'];
}

interface RevisionLinks {
  /** Item links by key digest. */
  items: Map<string, { key: string; url: string }>;
  count: number;
}

const CACHED_REVISIONS = 64;
/** Good tokens remembered (each a few hundred bytes): every item of many editions, on both channels. */
const VERIFIED_TOKENS = 4_096;
/** A revision not found is asked again after this long (it may be published meanwhile). */
const MISSING_FOR_MS = 60_000;

export function createLinkRedirect(deps: ClickDeps): LinkRedirect {
  const tokens = digestClickTokens(deps);
  const timer = deps.clock.timer ?? systemTimer;
  const home = subscriptionSettings(deps.config)?.baseUrl ?? safeUrl(deps.config.publish.baseUrl) ?? '/';
  const mode = analyticsMode(deps.config);
  const counter = createClickCounter({
    store: deps.store,
    perReader: mode === 'per-reader',
    perMinute: deps.config.analytics.perMinute,
    timer,
    today: () => {
      const at = deps.clock.now().toISOString();
      return { day: at.slice(0, 10), at };
    },
    log: deps.log,
  });
  const revisions = revisionCache(deps, timer.now);
  const read = verifiedTokens(tokens);
  return {
    async follow(request) {
      const link = read(request.token);
      if (!link) return { location: home, counted: 'none' };
      const revision = await revisions.get(link.edition, link.revision);
      const item = revision?.items.get(link.keyTag);
      if (!revision || !item)
        return { location: await editionPage(deps, link.edition, home), counted: 'none' };
      if (mode === 'off') return { location: item.url, counted: 'none' };
      const counted = counter.record({
        link,
        itemKey: item.key,
        itemsInMail: revision.count,
        source: request.source,
        method: request.method,
        userAgent: request.userAgent,
      });
      return { location: item.url, counted };
    },
    stop: () => counter.stop(),
    held: counter.held,
  };
}

/** The edition's page when it is published, else the site's home. */
async function editionPage(deps: ClickDeps, date: string, home: string): Promise<string> {
  const edition = await deps.store.editions.get(date);
  return edition?.publishedAt ? (absoluteUrl(home, `${date}/`) ?? home) : home;
}

/**
 * Tokens already verified, by their exact text: an HMAC per fetch is most of what the redirect computes, and the same
 * few dozen links are followed over and over. Only good tokens are kept (a forged one is verified each time and
 * never matches a kept one, which is the same text a good signature made); bounded, the oldest dropped first. A
 * reader's link is not kept: each reader has their own, so a list's clicks would only churn the map, and its item
 * part, the costly check, is remembered by the tokens themselves (click-tokens.ts).
 */
function verifiedTokens(tokens: ClickTokens): (token: string) => ClickLink | null {
  const verified = new Map<string, ClickLink>();
  return (token) => {
    const hit = verified.get(token);
    if (hit) return hit;
    const link = tokens.read(token);
    if (!link || link.subscriberId !== null) return link;
    verified.set(token, Object.freeze(link));
    if (verified.size > VERIFIED_TOKENS) verified.delete(verified.keys().next().value!);
    return link;
  };
}

/**
 * Revisions' item links, the last CACHED_REVISIONS used kept in memory (a revision never changes). A revision not
 * in memory is read once however many fetches ask for it meanwhile: they share the one load in flight (a new
 * edition's mail opened by hundreds of readers at once is one read, not hundreds).
 */
function revisionCache(deps: ClickDeps, now: () => number) {
  const cache = new Map<string, { links: RevisionLinks | null; at: number }>();
  const loading = new Map<string, Promise<RevisionLinks | null>>();
  const load = async (key: string, date: string, revision: number) => {
    try {
      const edition = await loadRevision(deps, date, revision);
      const links = edition ? revisionLinks(edition) : null;
      cache.set(key, { links, at: now() });
      while (cache.size > CACHED_REVISIONS) cache.delete(cache.keys().next().value!);
      return links;
    } finally {
      loading.delete(key);
    }
  };
  return {
    get(date: string, revision: number): Promise<RevisionLinks | null> | RevisionLinks | null {
      const key = `${date}|${revision}`;
      const hit = cache.get(key);
      if (hit && (hit.links || now() - hit.at < MISSING_FOR_MS)) {
        cache.delete(key);
        cache.set(key, hit);
        return hit.links;
      }
      const inFlight = loading.get(key);
      if (inFlight) return inFlight;
      const started = load(key, date, revision);
      loading.set(key, started);
      return started;
    },
  };
}

/** The revision as readers had it: kept whole once corrected; the live edition while it is the only one. */
async function loadRevision(deps: ClickDeps, date: string, revision: number): Promise<Edition | null> {
  const stored = await deps.store.revisions.get(date, revision);
  if (stored) return stored;
  const live = await deps.store.editions.get(date);
  return live?.publishedAt && (live.corrections?.length ?? 0) + 1 === revision ? live : null;
}

function revisionLinks(edition: Edition): RevisionLinks {
  const items = new Map<string, { key: string; url: string }>();
  for (const item of edition.items) {
    // The link the reader saw (an arXiv mirror shows as its arXiv page), and only a safe http(s) one.
    const url = safeUrl(readerUrl(item.url, item.arxivId));
    if (url) items.set(itemKeyTag(item.key), { key: item.key, url });
  }
  return { items, count: edition.items.length };
}
