// A feed's bytes → the items in the window and the warnings worth telling: parsing, then the entries made items.
// Pure and synchronous, so it runs the same in a worker thread (_feed-worker.ts) as on the calling thread.
import type { DateWindow, SourceItem } from '../core/types.js';
import { feedItems } from './_feed-items.js';
import { parseFeedBytes } from './_feed-parse.js';

export interface FeedCapture {
  items: SourceItem[];
  warnings: string[];
}

export interface FeedReadRequest {
  body: Uint8Array;
  contentType: string | undefined;
  sourceId: string;
  /** The final URL after redirects: relative links resolve against it. */
  feedUrl: string;
  window: DateWindow;
}

export function readFeed(request: FeedReadRequest): FeedCapture {
  const parsed = parseFeedBytes(request.body, request.contentType);
  const result = feedItems(parsed.feed, {
    sourceId: request.sourceId,
    feedUrl: request.feedUrl,
    window: request.window,
  });
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
