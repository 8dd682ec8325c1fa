// The store of the scale benchmarks: published editions (one with a German translation, so readers' mails differ)
// and `readers` confirmed readers with mixed choices (languages, topics, levels, "only my topics"), written in a few
// set-based statements so a list of 100,000 is ready in seconds, not the minutes one insert a reader would take.
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { TOPIC_NAMES } from '../src/select/topic-match.js';
import { openStore } from '../src/store/open-store.js';
import { pgliteOptions } from '../src/store/pglite-options.js';
import type { Store } from '../src/store/types.js';
import { referenceEdition } from '../test/support/reference-edition.js';

/** The editions the scale store holds, oldest first; the last has a German translation. */
export const SCALE_EDITIONS = ['2026-05-04', '2026-05-11', '2026-05-18', '2026-05-25'];

export async function prepareScaleStore(dataDir: string, readers: number): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const store = await openStore({ dataDir });
  try {
    await saveScaleEditions(store);
  } finally {
    await store.close();
  }
  await withPglite(dataDir, (pg) => pg.exec(readersSql(readers)));
}

/** The same editions and `readers` readers in a PostgreSQL database (migrated by opening it). */
export async function prepareScalePostgres(databaseUrl: string, readers: number): Promise<void> {
  const store = await openStore({ databaseUrl });
  try {
    await saveScaleEditions(store);
  } finally {
    await store.close();
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(readersSql(readers));
  } finally {
    await client.end();
  }
}

export async function saveScaleEditions(store: Store): Promise<void> {
  for (const date of SCALE_EDITIONS) {
    await store.editions.save({ ...referenceEdition(), date });
    await store.editions.markPublished(date, `${date}T08:00:00.000Z`);
  }
  await saveGermanTranslation(store, SCALE_EDITIONS.at(-1)!);
}

/** A German translation of the reference edition saved for `date`, so German readers' mails are their own renders. */
export async function saveGermanTranslation(store: Store, date: string): Promise<void> {
  const edition = referenceEdition();
  await store.translations.save(
    date,
    {
      language: 'de',
      title: `[de] ${edition.title}`,
      intro: `[de] ${edition.intro}`,
      items: Object.fromEntries(
        edition.items.map((item) => [
          item.key,
          {
            summary: `[de] ${item.summary}`,
            takeaways: item.takeaways.map((line) => `[de] ${line}`) as [string, string, string],
          },
        ]),
      ),
      writer: 'bench',
    },
    [],
  );
}

/** Runs SQL on the store's PGlite directly (bulk set-up only; the benchmarked code goes through the store). */
export async function withPglite<T>(dataDir: string, fn: (pg: PGlite) => Promise<T>): Promise<T> {
  const pg = await PGlite.create({ dataDir, ...pgliteOptions(PGlite) });
  try {
    return await fn(pg);
  } finally {
    await pg.close();
  }
}

/**
 * Readers 1…n confirmed; two in three choose: a third of those German, 1–3 topics of the ranking's list, some leave
 * Advanced out, some only their topics (fixed by the reader's number, so every run mails the same variants).
 */
export function readersSql(readers: number): string {
  const topics = JSON.stringify(TOPIC_NAMES).replaceAll("'", "''");
  return `
    INSERT INTO subscribers (address, mailbox, status, confirmed_at)
    SELECT a, a, 'confirmed', now() FROM (
      SELECT 'reader' || lpad(g::text, 6, '0') || '@example.com' AS a FROM generate_series(1, ${readers}) AS g) AS r;
    INSERT INTO subscriber_preferences (subscriber_id, language, topics, levels, only_my_topics)
    SELECT s.id,
      CASE WHEN s.id % 9 < 2 THEN 'de' END,
      coalesce((SELECT jsonb_agg(t.value) FROM jsonb_array_elements('${topics}'::jsonb) WITH ORDINALITY AS t(value, n)
       WHERE n % 7 = s.id % 7 OR (s.id % 5 = 0 AND n % 11 = s.id % 11)), '[]'::jsonb),
      CASE WHEN s.id % 5 = 1 THEN '["Accessible","Intermediate"]'::jsonb ELSE '[]'::jsonb END,
      s.id % 10 < 3
    FROM subscribers AS s WHERE s.id % 3 <> 0;
    ANALYZE;`;
}
