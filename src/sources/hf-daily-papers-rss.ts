// A third-party RSS mirror of HF's daily papers list. With "{date}" in the URL it is fetched once per list day
// of the window and every item is stamped with that list day (the item's pubDate is the paper's own date, not
// the list's). Without "{date}" the single capture is stamped with the day of its lastBuildDate.
// Descriptions look like: <p><img src=thumbnail></p><p><b>Authors:</b> …</p><p><b>Upvotes:</b> 3</p><p><b>Summary:</b> …</p>
import { systemClock } from '../core/clock.js';
import { daysOf, inWindow } from '../core/dates.js';
import { arxivIdFromText, arxivIdFromUrl, normaliseArxivId } from '../core/ids.js';
import type { HttpResponse, Source, SourceContext, SourceFetchResult } from '../core/ports.js';
import type { SourceItem } from '../core/types.js';
import { httpUrl } from '../core/urls.js';
import { fetchDays, keepEarliest, mergeDays } from './_daily.js';
import { parseFeedDate } from './_feed-dates.js';
import type { RawEntry } from './_feed-entries.js';
import { parseFeedBytes } from './_feed-parse.js';
import { firstImageSrc, htmlToText } from './_html-text.js';
import { urlForDay } from './_urls.js';

const ACCEPT = 'application/rss+xml, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.1';

export function hfDailyPapersRssSource(options: { id: string; url: string }): Source {
  const perDay = options.url.includes('{date}');
  return {
    id: options.id,
    kind: 'hf-daily-papers-rss',
    async fetch(context: SourceContext): Promise<SourceFetchResult> {
      const days = perDay ? daysOf(context.window) : [context.window.end];
      const { results, state } = await fetchDays({
        context,
        days,
        urlFor: (day) => urlForDay(options.url, day),
        accept: ACCEPT,
        read: (response, day) => readCapture(response, perDay ? day : null, options.id),
      });
      return mergeDays(results, state, (items, item) => {
        if (inWindow(item.publishedAt, context.window)) keepEarliest(items, item);
      });
    },
  };
}

function readCapture(
  response: HttpResponse,
  listDay: string | null,
  sourceId: string,
): { items: SourceItem[]; warnings: string[] } {
  const parsed = parseFeedBytes(response.body, response.headers['content-type']);
  const day =
    listDay ?? parseFeedDate(parsed.feed.date)?.slice(0, 10) ?? systemClock.now().toISOString().slice(0, 10);
  const items = parsed.feed.entries
    .map((entry) => toItem({ entry, day, feedUrl: response.url, sourceId }))
    .filter((item): item is SourceItem => item !== null);
  const dropped = parsed.feed.entries.length - items.length;
  if (dropped > 0 && items.length === 0) {
    throw new Error(`every one of its ${dropped} entries lacks a title or an http(s) link; check the URL`);
  }
  const warnings = [...parsed.warnings];
  if (dropped) warnings.push(`skipped ${dropped} entries without a title or an http(s) link`);
  return { items, warnings };
}

export function toItem({
  entry,
  day,
  feedUrl,
  sourceId,
}: {
  entry: RawEntry;
  day: string;
  feedUrl: string;
  sourceId: string;
}): SourceItem | null {
  const link = httpUrl(entry.link, feedUrl);
  const fields = labelledFields(entry.html);
  const arxivId =
    (link
      ? (arxivIdFromUrl(link) ?? normaliseArxivId(new URL(link).pathname.split('/').pop() ?? ''))
      : null) ?? arxivIdFromText(entry.html);
  const url = arxivId ? `https://arxiv.org/abs/${arxivId}` : link;
  const title = htmlToText(entry.title);
  if (!url || !title) return null;
  const upvotes = Number.parseInt(fields.get('upvotes') ?? '', 10);
  return {
    sourceId,
    url,
    title,
    text: fields.get('summary') ?? (fields.size ? '' : htmlToText(entry.html)),
    authors: (fields.get('authors') ?? '').split(/\s*,\s*/).filter(Boolean),
    arxivId,
    image: firstImageSrc(entry.html, link ?? feedUrl),
    publishedAt: `${day}T00:00:00.000Z`,
    upvotes: Number.isFinite(upvotes) ? upvotes : null,
  };
}

/** "Authors:", "Upvotes:", "Summary:" paragraphs of a description, keyed in lower case. */
function labelledFields(html: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const paragraph of html.split(/<\/?p\b[^>]*>/i)) {
    const match = /^(authors|upvotes|summary)\s*:\s*([\s\S]*)$/i.exec(htmlToText(paragraph));
    if (match?.[1] && match[2] !== undefined) fields.set(match[1].toLowerCase(), match[2].trim());
  }
  return fields;
}
