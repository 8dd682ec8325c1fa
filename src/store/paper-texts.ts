// Papers read in full, one row per arXiv id and version (migration 008). See enrich/full-text.ts for when a row is
// reused and when a paper is read again.
// Its port, PaperTextsPort, is declared in core/ports.ts: enrichment uses it.
import type { Kysely } from 'kysely';
import type { PaperRecord, PaperTextsPort } from '../core/ports.js';
import type { PaperText } from '../core/types.js';
import { bindQueries } from './_bind.js';
import { isoTimestamp, json, storableText } from './_values.js';
import type { Database } from './schema.js';

export function paperTextsStore(db: Kysely<Database>): PaperTextsPort {
  return bindQueries(db, { latest: paperTexts, save: savePaperText });
}

async function paperTexts(
  db: Kysely<Database>,
  arxivIds: readonly string[],
): Promise<Map<string, PaperRecord>> {
  const found = new Map<string, PaperRecord>();
  const ids = [...new Set(arxivIds)];
  if (ids.length === 0) return found;
  const rows = await db
    .selectFrom('paper_texts')
    .selectAll()
    .where('arxiv_id', 'in', ids)
    .orderBy('arxiv_id')
    .orderBy('version', 'desc')
    .orderBy('fetched_at', 'desc')
    .execute();
  for (const row of rows) {
    if (found.has(row.arxiv_id)) continue;
    found.set(row.arxiv_id, {
      arxivId: row.arxiv_id,
      version: row.version > 0 ? row.version : null,
      status: row.status,
      url: row.url,
      note: row.note,
      paper: (row.body as PaperText | null) ?? null,
      fetchedAt: isoTimestamp(row.fetched_at),
    });
  }
  return found;
}

async function savePaperText(db: Kysely<Database>, record: PaperRecord): Promise<void> {
  const values = {
    arxiv_id: storableText(record.arxivId),
    version: record.version ?? 0,
    status: record.status,
    url: storableText(record.url),
    note: record.note === null ? null : storableText(record.note),
    body: json(record.paper),
    fetched_at: record.fetchedAt,
  };
  await db
    .insertInto('paper_texts')
    .values(values)
    .onConflict((conflict) =>
      conflict.columns(['arxiv_id', 'version']).doUpdateSet((eb) => ({
        status: eb.ref('excluded.status'),
        url: eb.ref('excluded.url'),
        note: eb.ref('excluded.note'),
        body: eb.ref('excluded.body'),
        fetched_at: eb.ref('excluded.fetched_at'),
      })),
    )
    .execute();
}
