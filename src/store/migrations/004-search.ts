// Full-text search over published editions: one row per item of a published edition, with a weighted tsvector the
// database keeps itself (title A, summary B, takeaways C) and a GIN index. The rows are a copy of the edition body,
// rebuilt whenever an edition is saved or published (store/search.ts); this migration fills them for the editions
// already published. Drafts are never in it: the API and MCP server show published editions only.
// No foreign key to editions: editions are never deleted, and reindexEdition() keeps the rows in step.
// toast_tuple_target: a row is ~2 KB, just over the default 2 KB at which PostgreSQL compresses or moves columns out
// of line; the document would then be decompressed for every match and rank (measured: twice the search time).
import { type Kysely, sql } from 'kysely';
import { runScript } from './_script.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, SCHEMA);
  await sql`
    INSERT INTO search_items (edition_date, position, item_key, title, url, level, source, sources, authors,
                              summary, takeaways, item_published_at)
    SELECT e.date, (x.ord - 1)::integer, x.item->>'key', coalesce(x.item->>'title', ''), coalesce(x.item->>'url', ''),
           coalesce(x.item->>'level', ''), coalesce(x.item->>'source', ''), coalesce(x.item->'sources', '[]'),
           coalesce(x.item->'authors', '[]'), coalesce(x.item->>'summary', ''), coalesce(x.item->'takeaways', '[]'),
           coalesce(x.item->>'publishedAt', '')
    FROM editions e
    CROSS JOIN LATERAL jsonb_array_elements(e.body->'items') WITH ORDINALITY AS x(item, ord)
    WHERE e.published_at IS NOT NULL AND x.item->>'key' IS NOT NULL`.execute(db);
}

const SCHEMA = `
CREATE TABLE search_items (
  edition_date      date NOT NULL,
  position          integer NOT NULL,
  item_key          text NOT NULL,
  title             text NOT NULL,
  url               text NOT NULL,
  level             text NOT NULL,
  source            text NOT NULL,
  sources           jsonb NOT NULL,
  authors           jsonb NOT NULL,
  summary           text NOT NULL,
  takeaways         jsonb NOT NULL,
  item_published_at text NOT NULL,
  document          tsvector GENERATED ALWAYS AS (
                      setweight(to_tsvector('english', title), 'A') ||
                      setweight(to_tsvector('english', summary), 'B') ||
                      setweight(jsonb_to_tsvector('english', takeaways, '["string"]'), 'C')
                    ) STORED,
  PRIMARY KEY (edition_date, position)
) WITH (toast_tuple_target = 8160);
CREATE INDEX search_items_document ON search_items USING gin (document);
CREATE INDEX search_items_item_key ON search_items (item_key, edition_date);
`;
