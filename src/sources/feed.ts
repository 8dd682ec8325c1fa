// RSS 2.0, RSS 1.0/RDF, Atom and JSON Feed (feedsmith), read as bytes with encoding detection, salvaged when
// not well-formed. "{date}" in the URL fetches one capture per day of the window (per-day archives).

import { daysOf } from '../core/dates.js';
import { errorMessage } from '../core/errors.js';
import { canonicalUrl } from '../core/ids.js';
import type { HttpResponse, Source, SourceContext, SourceFetchResult, SourceState } from '../core/ports.js';
import type { DateWindow } from '../core/types.js';
import { conditionalGet, fetchDays, keepValidators, mergeDays } from './_daily.js';
import type { FeedCapture } from './_feed-read.js';
import { readFeedOffThread } from './_feed-threads.js';
import { urlForDay } from './_urls.js';

const ACCEPT =
  'application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.1';

export function feedSource(options: { id: string; url: string }): Source {
  const read = (window: DateWindow) => (response: HttpResponse) =>
    readFeedOffThread({
      body: response.body,
      contentType: response.headers['content-type'],
      sourceId: options.id,
      feedUrl: response.url,
      window,
    });
  return {
    id: options.id,
    kind: 'feed',
    async fetch(context: SourceContext): Promise<SourceFetchResult> {
      if (options.url.includes('{date}')) return fetchPerDay(context, options.url, read(context.window));
      const state: SourceState = { ...context.state };
      try {
        const response = await conditionalGet(context, options.url, ACCEPT);
        if (response.notModified) return { items: [], warnings: [], state, notModified: true };
        const { items, warnings } = await read(context.window)(response);
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
  read: (response: HttpResponse) => Promise<FeedCapture>,
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
