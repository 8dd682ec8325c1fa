// `digest restore FILE`: a checked backup written into an empty store (a new data folder, or an empty PostgreSQL
// database), in one transaction; a backup from an older schema is migrated forward on the way, one from a newer
// program refused. Afterwards every table holds the count the backup recorded, or nothing was restored.
import { ConfigError } from '../core/errors.js';
import type { BackupDeps } from './ports.js';
import { backupBatches, type CheckedBackup } from './read-backup.js';

export interface RestoreOutcome {
  schema: string;
  /** The backup's schema was older: its rows were migrated forward. */
  migratedFrom: string | null;
  counts: Record<string, number>;
}

export async function restoreBackup(deps: BackupDeps, backup: CheckedBackup): Promise<RestoreOutcome> {
  const { header, trailer } = backup;
  const known = await deps.store.backup.migrations();
  const last = known.at(-1) ?? '';
  if (!known.includes(header.schema)) {
    const why =
      header.schema > last
        ? `it was made by a newer digest (schema ${header.schema}; this program knows up to ${last}): upgrade digest first`
        : `its schema ${header.schema} is not one this program knows`;
    throw new ConfigError(`The backup ${backup.path} cannot be restored: ${why}.`, [
      { path: 'FILE', message: why },
    ]);
  }
  const occupied = await deps.store.backup.nonEmptyTables();
  if (occupied.length) {
    throw new ConfigError(
      `The target store is not empty (rows in ${occupied.join(', ')}): restore into a new --data-dir or an empty PostgreSQL database.`,
      [{ path: '--data-dir', message: 'not empty' }],
    );
  }
  const counts = await deps.store.backup.load({
    schema: header.schema,
    tables: header.tables,
    batches: backupBatches(backup),
    expected: trailer.counts,
  });
  deps.log.info(
    `restore: ${backup.path} restored (schema ${header.schema}${header.schema === last ? '' : ` → ${last}`})`,
  );
  return { schema: last, migratedFrom: header.schema === last ? null : header.schema, counts };
}
