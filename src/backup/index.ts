// backup/ — the store kept safe: `digest backup` (one consistent file while everything runs), `digest restore`
// (checked, then written into an empty store, older schemas migrated forward) and backups on a schedule.

export {
  type BackupScheduleSettings,
  lastBackupSuccess,
  pruneBackups,
  runBackupSlot,
  startBackupSchedule,
} from './backup-schedule.js';
export { type CheckedBackup, checkBackupFile } from './read-backup.js';
export { type RestoreOutcome, restoreBackup } from './restore.js';
export { type BackupInput, type BackupOutcome, takeBackup } from './take-backup.js';
