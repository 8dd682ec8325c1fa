// Representative rows as the program wrote them at each migration level: each level's SQL uses only the tables and
// columns that level has, so a database migrated to level N and given the rows of every level up to N looks like a
// store that program version left behind (readers in every status, sends with revisions, clicks, corrections).
import { type Kysely, sql } from 'kysely';

const ROWS: Record<string, string> = {
  '001-initial': `
INSERT INTO items (key, canonical_url, arxiv_id, url, title, text, authors, published_at, upvotes, primary_source, sources)
VALUES ('arxiv:2604.00001', 'https://arxiv.org/abs/2604.00001', '2604.00001', 'https://arxiv.org/abs/2604.00001',
        'A paper', 'Its abstract.', '["Ada Lovelace"]', '2026-04-28T09:00:00Z', 7, 'hf-daily', '[{"id":"hf-daily"}]'),
       ('url:https://blog.example.com/a', 'https://blog.example.com/a', NULL, 'https://blog.example.com/a',
        'A post', 'Its text.', '[]', '2026-04-29T10:00:00Z', NULL, 'feed', '[]');
INSERT INTO source_state (source_id, state) VALUES ('hf-daily', '{"https://x.example/":{"etag":"\\"e\\"","lastModified":null}}');
INSERT INTO editions (date, name, title, item_count, body, published_at)
VALUES ('2026-04-27', 'Week 18', 'Published edition', 1, '{"date":"2026-04-27","items":[]}', '2026-04-27T07:00:00Z'),
       ('2026-05-04', 'Week 19', 'Draft edition', 1, '{"date":"2026-05-04","items":[]}', NULL);
INSERT INTO edition_items (date, key, position) VALUES ('2026-04-27', 'arxiv:2604.00001', 0), ('2026-05-04', 'url:https://blog.example.com/a', 0);
INSERT INTO decisions (week, item_key, decision) VALUES ('2026-05-04', 'arxiv:2604.00001', 'skip'), ('2026-05-04', 'url:https://blog.example.com/a', 'pin');
INSERT INTO cache (namespace, key, value) VALUES ('llm', 'k1', '{"summary":"cached"}');
INSERT INTO ingest_runs (started_at, finished_at, sources) VALUES ('2026-04-28T06:00:00Z', '2026-04-28T06:01:00Z', '[{"id":"hf-daily","status":"ok","items":1}]');`,
  '002-subscribers': `
INSERT INTO subscribers (address, mailbox, status, confirmed_at, unsubscribed_at) VALUES
  ('pending@example.com', 'pending@example.com', 'pending', NULL, NULL),
  ('confirmed@example.com', 'confirmed@example.com', 'confirmed', '2026-04-01T08:00:00Z', NULL),
  ('left@example.com', 'left@example.com', 'unsubscribed', '2026-04-01T08:00:00Z', '2026-04-20T08:00:00Z'),
  ('bounced@example.com', 'bounced@example.com', 'bounced', '2026-04-01T08:00:00Z', NULL);
INSERT INTO send_log (edition_date, subscriber_id, state, attempts, smtp_response, message_id)
SELECT '2026-04-27', id, 'sent', 1, '250 OK', '<' || id || '@example.com>' FROM subscribers WHERE status <> 'pending';`,
  '003-editors-desk': `
INSERT INTO editors (email, password_hash) VALUES ('editor@example.com', 'scrypt$hash');
INSERT INTO editor_sessions (token_hash, editor_id, csrf_secret, expires_at) SELECT 'token-hash', id, 'csrf', '2026-06-01T00:00:00Z' FROM editors;
INSERT INTO desk_edits (week, item_key, field, generated, edited, version, edited_by)
VALUES ('2026-05-04', 'url:https://blog.example.com/a', 'summary', '"generated"', '"edited"', 1, 'editor@example.com');
INSERT INTO desk_weeks (week, item_count, item_order, updated_by) VALUES ('2026-05-04', 5, '["url:https://blog.example.com/a"]', 'editor@example.com');
INSERT INTO approvals (week, approved_by) VALUES ('2026-04-27', 'editor@example.com');
INSERT INTO desk_audit (editor, action, week, detail) VALUES ('editor@example.com', 'approve', '2026-04-27', '{"note":"ok"}');
UPDATE decisions SET decided_by = 'editor@example.com' WHERE decision = 'pin';`,
  '004-search': `
INSERT INTO search_items (edition_date, position, item_key, title, url, level, source, sources, authors, summary, takeaways, item_published_at)
VALUES ('2026-04-27', 0, 'arxiv:2604.00001', 'A paper', 'https://arxiv.org/abs/2604.00001', 'research', 'hf-daily', '["hf-daily"]', '["Ada Lovelace"]', 'A summary.', '["One"]', '2026-04-28T09:00:00Z');`,
  '005-send-failures': `
INSERT INTO editions (date, name, title, item_count, body, published_at) VALUES ('2026-04-20', 'Week 17', 'Older edition', 0, '{"date":"2026-04-20","items":[]}', '2026-04-20T07:00:00Z');
INSERT INTO send_log (edition_date, subscriber_id, state, attempts, failure) SELECT '2026-04-20', id, 'failed', 3, 'permanent' FROM subscribers WHERE status = 'bounced';`,
  '006-send-handover': `
INSERT INTO send_log (edition_date, subscriber_id, state, attempts, handed_over_at) SELECT '2026-04-20', id, 'uncertain', 1, '2026-04-20T07:05:00Z' FROM subscribers WHERE status = 'confirmed';`,
  '007-outbox': `
INSERT INTO outbox (kind, subscriber_id, generation, state) SELECT 'confirmation', id, generation, 'queued' FROM subscribers WHERE status = 'pending';
UPDATE subscribers SET generation = 2 WHERE status = 'confirmed';`,
  '008-paper-texts': `
INSERT INTO paper_texts (arxiv_id, version, status, url, body) VALUES ('2604.00001', 1, 'read', 'https://arxiv.org/html/2604.00001v1', '{"sections":[]}');
INSERT INTO desk_edits (week, item_key, field, generated, edited, version, edited_by)
VALUES ('2026-05-04', 'url:https://blog.example.com/a', 'facts', '[]', '["A fact"]', 1, 'editor@example.com');`,
  '009-reader-preferences': `
INSERT INTO subscriber_preferences (subscriber_id, language, topics, levels, only_my_topics) SELECT id, 'de', '["agents"]', '["research"]', true FROM subscribers WHERE status = 'confirmed';
INSERT INTO edition_translations (edition_date, language, generated, warnings, writer) VALUES ('2026-04-27', 'de', '{"title":"Ausgabe"}', '[]', 'extractive');`,
  '010-canonical-mailbox': `
INSERT INTO subscribers (address, mailbox, status, confirmed_at) VALUES ('Mixed.Case@Example.com', 'mixed.case@example.com', 'confirmed', '2026-04-02T08:00:00Z');`,
  '011-revisions': `
INSERT INTO edition_revisions (edition_date, revision, body, published_at) SELECT date, 1, body, published_at FROM editions WHERE published_at IS NOT NULL;
INSERT INTO editions (date, name, title, item_count, body, published_at) VALUES ('2026-04-13', 'Week 16', 'Corrected edition', 0, '{"date":"2026-04-13","items":[]}', '2026-04-14T07:00:00Z');
INSERT INTO edition_revisions (edition_date, revision, body, editor, reason, published_at) VALUES
  ('2026-04-13', 1, '{"date":"2026-04-13","items":[]}', NULL, NULL, '2026-04-13T07:00:00Z'),
  ('2026-04-13', 2, '{"date":"2026-04-13","items":[]}', 'editor@example.com', 'A wrong date', '2026-04-14T07:00:00Z');`,
  '012-link-clicks': `
INSERT INTO link_clicks (edition_date, revision, item_key, channel, day, clicks, prefetched) VALUES ('2026-04-27', 1, 'arxiv:2604.00001', 'mail', '2026-04-27', 12, 3);
INSERT INTO reader_clicks (edition_date, revision, item_key, channel, subscriber_id, clicked_at) SELECT '2026-04-27', 1, 'arxiv:2604.00001', 'mail', id, '2026-04-27T09:00:00Z' FROM subscribers WHERE status = 'confirmed';
UPDATE subscriber_preferences SET count_my_clicks = false;`,
  '013-send-revisions': `
INSERT INTO send_log (edition_date, subscriber_id, state, attempts, revision, notice) SELECT '2026-04-13', id, 'sent', 1, 2, 2 FROM subscribers WHERE status = 'confirmed';`,
  '014-complaints': `
INSERT INTO subscribers (address, mailbox, status, confirmed_at, unsubscribed_at, complained_at) VALUES ('complained@example.com', 'complained@example.com', 'unsubscribed', '2026-04-01T08:00:00Z', '2026-04-28T08:00:00Z', '2026-04-28T08:00:00Z');`,
  '018-scheduled-sends': `
INSERT INTO scheduled_sends (edition, send_at, time_zone, created_by, state, outcome) VALUES
  ('2026-04-27', '2026-04-27T07:00:00Z', 'UTC', 'cli', 'done', '{"sent":2,"complete":true}'),
  ('2026-05-04', '2026-05-11T06:00:00Z', 'Europe/Berlin', 'editor@example.com', 'scheduled', 'null');`,
  '019-reader-status-events': `
INSERT INTO reader_status_events (subscriber_id, status, how, at)
SELECT id, 'pending', 'subscribe form', '2026-03-31T08:00:00Z'::timestamptz FROM subscribers WHERE address = 'left@example.com'
UNION ALL SELECT id, 'confirmed', 'confirm link', '2026-04-01T08:00:00Z' FROM subscribers WHERE address = 'left@example.com'
UNION ALL SELECT id, 'unsubscribed', 'unsubscribe link', '2026-04-20T08:00:00Z' FROM subscribers WHERE address = 'left@example.com';`,
  '021-reader-clicks-incoming': `
INSERT INTO reader_clicks_incoming (edition_date, revision, item_key, channel, subscriber_id, clicked_at) SELECT '2026-04-27', 1, 'arxiv:2604.00002', 'mail', id, '2026-04-28T09:00:00Z' FROM subscribers WHERE status = 'confirmed';`,
};

/** The levels that have rows, in order (every migration has some). */
export const SEEDED_LEVELS = Object.keys(ROWS);

/** Writes the rows of every level up to `level` into a database migrated to `level`. */
export async function seedUpTo(db: Kysely<unknown>, level: string): Promise<void> {
  for (const [name, script] of Object.entries(ROWS)) {
    if (name > level) break;
    for (const statement of script
      .split(/;\n/)
      .map((text) => text.trim())
      .filter(Boolean))
      await sql.raw(statement).execute(db);
  }
}
