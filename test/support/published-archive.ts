// A published archive for the API and MCP tests: three weekly editions of the reference edition, published through
// the store (saveEdition, then markPublished, as `digest publish` does), and one draft that must never show.
import type { Edition } from '../../src/core/types.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/types.js';
import { seedPgliteDataDir } from './database.js';
import { weeklyEditions } from './weekly-editions.js';

export const BASE_URL = 'https://digest.example.org/';
export const DRAFT_DATE = '2026-05-11';
/** A word only the draft carries. */
export const DRAFT_WORD = 'zanzibarian';

export function draftEdition(): Edition {
  const [latest] = weeklyEditions(1);
  const item = latest!.items[0]!;
  return {
    ...latest!,
    date: DRAFT_DATE,
    title: 'Unpublished draft',
    publishedAt: null,
    items: [{ ...item, key: 'url:https://example.com/draft', title: `A ${DRAFT_WORD} draft item` }],
  };
}

export async function publishArchive(store: Pick<Store, 'editions'>, count = 3): Promise<Edition[]> {
  const editions = weeklyEditions(count);
  for (const edition of editions) {
    await store.editions.save({ ...edition, publishedAt: null });
    await store.editions.markPublished(edition.date, edition.publishedAt!);
  }
  await store.editions.save(draftEdition());
  return editions;
}

/** A PGlite data folder holding the archive, for the real `digest mcp` / `digest serve` processes. */
export async function seedArchiveDataDir(dataDir: string): Promise<Edition[]> {
  await seedPgliteDataDir(dataDir);
  const store = await openStore({ dataDir });
  try {
    return await publishArchive(store);
  } finally {
    await store.close();
  }
}
