// What readers clicked in the published editions before a week, as select/reader-taste.ts learns from it: each
// edition's items as readers had them, with their clicks (scanner prefetches are counted apart and left out).
import { type ClickedItem, learnReaderTaste, type ReaderTaste } from '../select/reader-taste.js';
import type { Store } from '../store/types.js';

/** Published editions read, newest first: the same half year the editor's taste reads. */
const MAX_EDITIONS = 26;

export type ReaderHistoryStore = Pick<Store, 'editions' | 'clicks'>;

export async function readerHistory(store: ReaderHistoryStore, date: string): Promise<ClickedItem[][]> {
  const published = (await store.editions.list())
    .filter((edition) => edition.publishedAt !== null && edition.date < date)
    .slice(0, MAX_EDITIONS);
  const clicks = new Map<string, number>();
  for (const row of await store.clicks.itemTotals(published.map((summary) => summary.date)))
    clicks.set(`${row.edition} ${row.itemKey}`, row.clicks);
  const editions: ClickedItem[][] = [];
  for (const summary of published) {
    const edition = await store.editions.get(summary.date);
    if (!edition) continue;
    editions.push(
      edition.items.map((item) => ({
        title: item.title,
        summary: item.summary,
        takeaways: item.takeaways,
        source: item.source,
        arxivId: item.arxivId,
        clicks: clicks.get(`${summary.date} ${item.key}`) ?? 0,
      })),
    );
  }
  return editions;
}

/** What readers taught the ranking before `date`, or null while no edition has enough clicks. */
export async function loadReaderTaste(store: ReaderHistoryStore, date: string): Promise<ReaderTaste | null> {
  return learnReaderTaste(await readerHistory(store, date));
}
