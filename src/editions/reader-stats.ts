// What readers did with published editions, for the editor (desk), the operator (`digest stats`, the JSON API) and
// /metrics: per item its clicks, unique readers (per-reader mode only), share of the edition's clicks and the
// scanners' prefetches apart; per edition the mails sent and what followed them — bounces, complaints, unsubscribes
// (store/mail-outcomes.ts); a trend
// over the last editions. Counts only: nothing here names a reader.
import { analyticsMode } from '../config/analytics-schema.js';
import { NotReadyError } from '../core/errors.js';
import type { MailOutcomes } from '../store/mail-outcomes.js';
import type { Store } from '../store/types.js';

/** Editions the trend shows, newest first. */
const TREND_EDITIONS = 8;

export type StatsStore = Pick<Store, 'editions' | 'clicks' | 'mailOutcomes'>;

export interface ItemStats {
  /** 1-based place in the edition. */
  position: number;
  key: string;
  title: string;
  url: string;
  clicks: number;
  /** Readers who clicked it, in per-reader mode; null in the aggregate mode (no reader is recorded). */
  uniqueReaders: number | null;
  /** Its clicks over the edition's clicks, 0–1 (0 when the edition has none). */
  share: number;
  /** Fetches by link scanners and mail gateways, counted apart (never in clicks or share). */
  prefetched: number;
}

export interface TrendPoint {
  edition: string;
  clicks: number;
  prefetched: number;
  sent: number;
  /** Clicks per mail sent; null when none was sent. */
  clicksPerMail: number | null;
  /** What followed its mail (store/mail-outcomes.ts): a complaint counted apart from the unsubscribes. */
  bounced: number;
  complained: number;
  unsubscribed: number;
}

export interface EditionStats {
  edition: string;
  title: string;
  publishedAt: string | null;
  clicks: number;
  prefetched: number;
  items: ItemStats[];
  /** Mails sent, and the bounces, complaints and unsubscribes that followed them (a complaint counted once, apart). */
  mail: MailOutcomes;
  /** The last editions, newest first (this one among them). */
  trend: TrendPoint[];
}

const ratio = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 1000 : 0);

/** The stats of the published edition of `week`, or of the newest published one without a week. */
export async function readerStats(
  deps: { store: StatsStore; config?: Parameters<typeof analyticsMode>[0] },
  input: { week?: string | undefined },
): Promise<EditionStats> {
  const { store } = deps;
  const week = input.week ?? (await newestPublished(store));
  const edition = week ? await store.editions.get(week) : null;
  if (!week || !edition?.publishedAt)
    throw new NotReadyError(
      week
        ? `No published edition for ${week}: readers see only published editions (./digest publish --week ${week}).`
        : 'No published edition yet: publish one (./digest publish), mail it (./digest send), then its clicks count.',
    );
  const counts = new Map((await store.clicks.byItem(week)).map((row) => [row.itemKey, row]));
  // Per-reader counts (the mode, or readers already stored): an item nobody clicked has 0 readers, not "none kept".
  const perReader =
    (deps.config !== undefined && analyticsMode(deps.config) === 'per-reader') ||
    [...counts.values()].some((row) => row.uniqueReaders !== null);
  const perReaderZero = perReader ? 0 : null;
  const clicks = edition.items.reduce((sum, item) => sum + (counts.get(item.key)?.clicks ?? 0), 0);
  const items: ItemStats[] = edition.items.map((item, index) => {
    const count = counts.get(item.key);
    return {
      position: index + 1,
      key: item.key,
      title: item.title,
      url: item.url,
      clicks: count?.clicks ?? 0,
      uniqueReaders: count?.uniqueReaders ?? perReaderZero,
      share: ratio(count?.clicks ?? 0, clicks),
      prefetched: count?.prefetched ?? 0,
    };
  });
  return {
    edition: week,
    title: edition.title,
    publishedAt: edition.publishedAt ?? null,
    clicks,
    prefetched: items.reduce((sum, item) => sum + item.prefetched, 0),
    items,
    mail: await store.mailOutcomes.forEdition(week),
    trend: await clickTrend(store, week),
  };
}

async function newestPublished(store: StatsStore): Promise<string | undefined> {
  return (await store.editions.list()).find((edition) => edition.publishedAt !== null)?.date;
}

/** The published editions up to `week`, newest first, with their clicks and mails. */
async function clickTrend(store: StatsStore, week: string): Promise<TrendPoint[]> {
  const published = (await store.editions.list())
    .filter((edition) => edition.publishedAt !== null && edition.date <= week)
    .slice(0, TREND_EDITIONS);
  const counts = new Map((await store.clicks.byEdition(TREND_EDITIONS * 4)).map((row) => [row.edition, row]));
  const trend: TrendPoint[] = [];
  for (const { date } of published) {
    const { sent, bounced, complained, unsubscribed } = await store.mailOutcomes.forEdition(date);
    const count = counts.get(date);
    trend.push({
      edition: date,
      clicks: count?.clicks ?? 0,
      prefetched: count?.prefetched ?? 0,
      sent,
      clicksPerMail: sent > 0 ? ratio(count?.clicks ?? 0, sent) : null,
      bounced,
      complained,
      unsubscribed,
    });
  }
  return trend;
}

/** Every edition's counted links: readers' clicks and link scanners' prefetches (for /metrics). */
export async function clickTotals(deps: { store: Pick<Store, 'clicks'> }): Promise<{
  clicks: number;
  prefetched: number;
}> {
  const editions = await deps.store.clicks.byEdition(Number.MAX_SAFE_INTEGER);
  return {
    clicks: editions.reduce((sum, edition) => sum + edition.clicks, 0),
    prefetched: editions.reduce((sum, edition) => sum + edition.prefetched, 0),
  };
}
