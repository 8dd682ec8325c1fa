// For a list of a hundred thousand readers and more.
//
// `send_log_reader`: one reader's rows by reader, then edition. The send log's key starts with the edition, so
// without it every look-up by reader walked a whole edition's rows or the whole log: the mail a reader was sent
// before (asked as each mail of a correction notice starts), the reader's page and export on the desk, and the
// rows that go with a removed reader.
//
// `send_log_sent`: the mails sent of each edition (and each correction notice), kept by the database itself in the
// statement that changes the send log (statement triggers over the rows each statement changed), so a count is
// always the rows' own. The stats read an edition's mails sent from it instead of counting a whole list's rows,
// once per edition of the trend.
import { type Kysely, sql } from 'kysely';
import { runScript } from './_script.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, SCHEMA);
  // One statement whose body holds semicolons: not for runScript.
  await sql.raw(COUNT_SENT).execute(db);
  await runScript(db, TRIGGERS);
}

const SCHEMA = `
CREATE INDEX send_log_reader ON send_log (subscriber_id, edition_date);

CREATE TABLE send_log_sent (
  edition_date date NOT NULL,
  notice integer NOT NULL,
  sent integer NOT NULL,
  PRIMARY KEY (edition_date, notice)
);
INSERT INTO send_log_sent (edition_date, notice, sent)
SELECT edition_date, notice, count(*) FROM send_log WHERE state = 'sent' GROUP BY edition_date, notice;
`;

// Counters taken in key order, so two statements never take the same counters in opposite orders. "OR REPLACE": a
// database emptied table by table keeps its functions.
const COUNT_SENT = `
CREATE OR REPLACE FUNCTION send_log_count_sent() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO send_log_sent AS c (edition_date, notice, sent)
    SELECT edition_date, notice, count(*) FROM new_rows WHERE state = 'sent'
    GROUP BY edition_date, notice ORDER BY edition_date, notice
    ON CONFLICT (edition_date, notice) DO UPDATE SET sent = c.sent + excluded.sent;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE send_log_sent AS c SET sent = c.sent - d.gone
    FROM (SELECT edition_date, notice, count(*) AS gone FROM old_rows WHERE state = 'sent'
          GROUP BY edition_date, notice) AS d
    WHERE c.edition_date = d.edition_date AND c.notice = d.notice;
  ELSE
    INSERT INTO send_log_sent AS c (edition_date, notice, sent)
    SELECT edition_date, notice, sum(change) FROM (
      SELECT edition_date, notice, 1 AS change FROM new_rows WHERE state = 'sent'
      UNION ALL SELECT edition_date, notice, -1 FROM old_rows WHERE state = 'sent') AS changed
    GROUP BY edition_date, notice HAVING sum(change) <> 0 ORDER BY edition_date, notice
    ON CONFLICT (edition_date, notice) DO UPDATE SET sent = c.sent + excluded.sent;
  END IF;
  RETURN NULL;
END $$`;

const TRIGGERS = `
CREATE TRIGGER send_log_sent_insert AFTER INSERT ON send_log REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION send_log_count_sent();
CREATE TRIGGER send_log_sent_update AFTER UPDATE ON send_log REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION send_log_count_sent();
CREATE TRIGGER send_log_sent_delete AFTER DELETE ON send_log REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION send_log_count_sent();
`;
