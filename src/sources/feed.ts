// RSS 2.0, RSS 1.0/RDF, Atom and JSON Feed (feedsmith), read as bytes with encoding detection, salvaged when
// not well-formed. "{date}" in the URL fetches one capture per day of the window (per-day archives).

import { daysOf } from '../core/dates.js';
import { errorMessage } from '../core/errors.js';
import { canonicalUrl } from '../core/ids.js';
import type { HttpResponse, Source, SourceContext, SourceFetchResult, SourceState } from '../core/ports.js';
import type { DateWindow, SourceItem } from '../core/types.js';
import { conditionalGet, fetchDays, keepValidators, mergeDays } from './_daily.js';
import { feedItems } from './_feed-items.js';
import { parseFeedBytes } from './_feed-parse.js';
import { urlForDay } from './_urls.js';

const ACCEPT =
  'application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.1';

interface Capture {
  items: SourceItem[];
  warnings: string[];
}

export function feedSource(options: { id: string; url: string }): Source {
  const read = (window: DateWindow) => (response: HttpResponse) => readFeed(response, options.id, window);
  return {
    id: options.id,
    kind: 'feed',
    async fetch(context: SourceContext): Promise<SourceFetchResult> {
      if (options.url.includes('{date}')) return fetchPerDay(context, options.url, read(context.window));
      const state: SourceState = { ...context.state };
      try {
        const response = await conditionalGet(context, options.url, ACCEPT);
        if (response.notModified) return { items: [], warnings: [], state, notModified: true };
        const { items, warnings } = read(context.window)(response);
        keepValidators({ state, url: options.url, response, window: context.window });
        return { items, warnings, state };
      } catch (error) {
        return { items: [], warnings: [], state, error: errorMessage(error) };
      }
    },
  };
}

async function fetchPerDay(
  context: SourceContext,
  template: string,
  read: (response: HttpResponse) => Capture,
): Promise<SourceFetchResult> {
  const { results, state } = await fetchDays({
    context,
    days: daysOf(context.window),
    urlFor: (day) => urlForDay(template, day),
    accept: ACCEPT,
    read,
  });
  return mergeDays(results, state, (items, item) => {
    const key = canonicalUrl(item.url);
    if (!items.has(key)) items.set(key, item);
  });
}

function readFeed(response: HttpResponse, sourceId: string, window: DateWindow): Capture {
  const parsed = parseFeedBytes(response.body, response.headers['content-type']);
  const result = feedItems(parsed.feed, { sourceId, feedUrl: response.url, window });
  const reasons = [...result.skipped].map(
    ([reason, count]) => `${count} ${count === 1 ? 'entry' : 'entries'}: ${reason}`,
  );
  const rejected = [...result.skipped.values()].reduce((sum, count) => sum + count, 0);
  // Entries outside the window make an honest empty result; entries that were all unreadable do not.
  const offered = Math.max(parsed.feed.entries.length, parsed.declaredEntries ?? 0);
  if (offered > 0 && result.items.length === 0 && result.outside === 0) {
    const why = reasons.length ? reasons.join('; ') : `${offered} entries the parser could not read`;
    throw new Error(`every entry of the feed was rejected (${why}); check the URL or the feed`);
  }
  const warnings = [...parsed.warnings];
  if (rejected) warnings.push(...reasons.map((reason) => `skipped ${reason}`));
  return { items: result.items, warnings };
}
