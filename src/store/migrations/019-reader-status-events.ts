// A reader's status history as recorded events: each change of status (subscribed, confirmed, consent asserted,
// unsubscribed, complained, bounced) with when and how it happened — the form, a link, an import or add by whom,
// a delivery report. Written in the same statement or transaction as the change, and deleted with the reader (a
// removal keeps no trace of the address: the desk's audit records that it happened). Readers stored before this
// migration get their history from the times on their row, each marked as read from there.
import type { Kysely } from 'kysely';
import { runScript } from './_script.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, SCHEMA);
}

const FROM_ROW = ' (from the times on the reader row)';

const SCHEMA = `
CREATE TABLE reader_status_events (
  id bigserial PRIMARY KEY,
  subscriber_id integer NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('pending', 'confirmed', 'unsubscribed', 'bounced')),
  how text NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reader_status_events_reader ON reader_status_events (subscriber_id);
INSERT INTO reader_status_events (subscriber_id, status, how, at)
SELECT id, 'pending', 'subscribed${FROM_ROW}', created_at FROM subscribers
  WHERE consent_at IS NULL OR consent_at > created_at
UNION ALL
SELECT id, 'confirmed', 'consent asserted by ' || coalesce(consent_by, 'an operator') || '${FROM_ROW}', consent_at
  FROM subscribers WHERE consent_at IS NOT NULL
UNION ALL
SELECT id, 'confirmed', 'confirm link${FROM_ROW}', confirmed_at FROM subscribers
  WHERE confirmed_at IS NOT NULL AND consent_at IS NULL
UNION ALL
SELECT id, CASE WHEN unsubscribed_at = complained_at THEN 'unsubscribed' ELSE status END,
  'complaint${FROM_ROW}', complained_at FROM subscribers WHERE complained_at IS NOT NULL
UNION ALL
SELECT id, 'unsubscribed', 'unsubscribe link${FROM_ROW}', unsubscribed_at FROM subscribers
  WHERE unsubscribed_at IS NOT NULL AND unsubscribed_at IS DISTINCT FROM complained_at
UNION ALL
SELECT id, 'bounced', 'bounce${FROM_ROW}', updated_at FROM subscribers WHERE status = 'bounced'
ORDER BY 4, 1;
`;
