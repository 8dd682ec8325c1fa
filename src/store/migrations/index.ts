// Every migration, by name in the order they apply; Kysely's Migrator records each in kysely_migration.
// Add the next one as `002-….ts` and list it here; never edit or rename a released one.
import type { Migration, MigrationProvider } from 'kysely';
import * as initial from './001-initial.js';
import * as subscribers from './002-subscribers.js';
import * as editorsDesk from './003-editors-desk.js';
import * as search from './004-search.js';
import * as sendFailures from './005-send-failures.js';
import * as sendHandover from './006-send-handover.js';
import * as outbox from './007-outbox.js';
import * as paperTexts from './008-paper-texts.js';
import * as readerPreferences from './009-reader-preferences.js';
import * as canonicalMailbox from './010-canonical-mailbox.js';
import * as revisions from './011-revisions.js';
import * as linkClicks from './012-link-clicks.js';
import * as sendRevisions from './013-send-revisions.js';
import * as complaints from './014-complaints.js';
import * as sendAtSize from './015-send-at-size.js';

export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '001-initial': initial,
  '002-subscribers': subscribers,
  '003-editors-desk': editorsDesk,
  '004-search': search,
  '005-send-failures': sendFailures,
  '006-send-handover': sendHandover,
  '007-outbox': outbox,
  '008-paper-texts': paperTexts,
  '009-reader-preferences': readerPreferences,
  '010-canonical-mailbox': canonicalMailbox,
  '011-revisions': revisions,
  '012-link-clicks': linkClicks,
  '013-send-revisions': sendRevisions,
  '014-complaints': complaints,
  '015-send-at-size': sendAtSize,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => ({ ...MIGRATIONS }),
};
