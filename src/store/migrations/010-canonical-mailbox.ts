// One inbox, one reader: `subscribers.mailbox` becomes the inbox an address reaches by its provider's
// rules (core/email-address.ts `canonicalMailbox`: Gmail's dots and googlemail.com, Proton's separators, Yahoo's
// "-keyword", any "+tag"), no longer only the address without its "+tag". Per-inbox limits and duplicates key on it
// through the existing index `subscribers_mailbox`. Rows are rewritten in pages by id; the addresses stay as typed.
import { type Kysely, sql } from 'kysely';
import { canonicalMailbox } from '../../core/email-address.js';

const PAGE = 1000;

export async function up(db: Kysely<unknown>): Promise<void> {
  let after = 0;
  for (;;) {
    const { rows } = await sql<{ id: number; address: string; mailbox: string }>`
      SELECT id, address, mailbox FROM subscribers WHERE id > ${after} ORDER BY id LIMIT ${PAGE}`.execute(db);
    if (rows.length === 0) return;
    for (const row of rows) {
      const mailbox = canonicalMailbox(row.address);
      if (mailbox !== row.mailbox) {
        await sql`UPDATE subscribers SET mailbox = ${mailbox} WHERE id = ${row.id}`.execute(db);
      }
    }
    after = Number(rows.at(-1)!.id);
  }
}
