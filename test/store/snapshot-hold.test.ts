// The moment a backup holds the database is one script on PGlite: a store migrated after its catalog was read is
// refused by the database inside the snapshot, and the refused script leaves no transaction open behind it.
import { type Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { holdSnapshot } from '../../src/store/_snapshot-hold.js';
import { pgliteDatabase, scripts } from '../../src/store/database.js';
import { migrationNames } from '../../src/store/migrate.js';
import { openStoreFromPglite } from '../../src/store/open-store.js';
import { freshPglite } from '../support/database.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function embedded() {
  const pglite = await freshPglite();
  const store = await openStoreFromPglite(pglite);
  cleanups.push(() => store.close());
  const db = pgliteDatabase(pglite, { ownsDatabase: false });
  return { pglite, db, raw: db as unknown as Kysely<unknown> };
}

describe('the snapshot a backup holds', () => {
  it('declares every cursor in one script at the store’s level', async () => {
    const { db, raw } = await embedded();
    const tables = [{ name: 'subscribers', columns: ['id', 'address'] }];
    const schema = migrationNames().at(-1) ?? '';
    const cursors = await holdSnapshot(raw, {
      tables,
      prefix: 'held',
      schema,
      script: scripts(db) ?? undefined,
    });
    expect(cursors).toEqual(['held_0']);
    await sql`insert into subscribers (address, mailbox, status) values ('late@example.com', 'late@example.com', 'pending')`.execute(
      raw,
    );
    // Held at its moment: the reader added after it is not in the cursor.
    const { rows } = await sql<{ address: string }>`fetch all from held_0`.execute(raw);
    expect(rows.map((row) => row.address)).not.toContain('late@example.com');
  });

  it('refuses a store migrated since its catalog was read, and leaves the session free', async () => {
    const { pglite, db, raw } = await embedded();
    const tables = [{ name: 'subscribers', columns: ['id'] }];
    await expect(
      holdSnapshot(raw, { tables, prefix: 'stale', schema: '000-older', script: scripts(db) ?? undefined }),
    ).rejects.toThrow(/migrated while the backup began/);
    expect(pglite.isInTransaction()).toBe(false);
    await expect(sql`fetch 1 from stale_0`.execute(raw)).rejects.toThrow(/does not exist/);
  });
});
