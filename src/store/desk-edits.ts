// The desk's per-week state: the editor's versions of texts (with a version per item for optimistic concurrency),
// the week's item count and order, approvals and the audit log. (Who decided what: decisions.ts.)
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Edition } from '../core/types.js';
import { bindQueries } from './_bind.js';
import { isoTimestamp, json, toJson } from './_values.js';
import { applyEdits, type DeskEdit, type DeskField, fieldValue, sameValue } from './desk-apply.js';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

export interface DeskWeek {
  week: string;
  itemCount: number | null;
  /** Item keys in the order the editor set; keys not listed follow in the plan's order. */
  order: string[] | null;
  updatedBy: string;
  updatedAt: string;
}

export interface AuditEntry {
  id: number;
  at: string;
  editor: string;
  action: string;
  week: string | null;
  itemKey: string | null;
  detail: Record<string, unknown>;
}

export type SaveEditsResult = { ok: true; version: number } | { ok: false; current: DeskEdit[] };

/** One save of the desk: field changes of one item (or the header, key '') made on top of `expectedVersion`. */
export interface DeskEditsSave {
  week: string;
  itemKey: string;
  /** The item's version the editor started from (0: never edited). */
  expectedVersion: number;
  changes: { field: DeskField; generated: unknown; edited: unknown }[];
  by: string;
}

/** The desk's per-week state: edits, count and order, approvals, the audit log. */
export interface DeskPort {
  edits(week: string): Promise<DeskEdit[]>;
  /** Saves when the item's version is still the expected one; otherwise nothing is written and the current rows come back. */
  saveEdits(save: DeskEditsSave): Promise<SaveEditsResult>;
  /** Records `edition`'s texts as the generated ones and returns it with every editor's version applied. */
  keepEditorEdits(edition: Edition): Promise<Edition>;
  week(week: string): Promise<DeskWeek | null>;
  setWeek(
    week: string,
    patch: { itemCount?: number | null; order?: string[] | null },
    by: string,
  ): Promise<void>;
  recordApproval(week: string, by: string): Promise<void>;
  approval(week: string): Promise<{ approvedBy: string; approvedAt: string } | null>;
  recordAudit(entry: Omit<AuditEntry, 'id' | 'at'>): Promise<void>;
  /** Newest first. */
  listAudit(options?: { week?: string; limit?: number }): Promise<AuditEntry[]>;
}

export function deskStore(db: Db): DeskPort {
  return bindQueries(db, {
    edits: deskEdits,
    saveEdits: saveDeskEdits,
    keepEditorEdits,
    week: deskWeek,
    setWeek: setDeskWeek,
    recordApproval,
    approval,
    recordAudit,
    listAudit,
  });
}

async function deskEdits(db: Db, week: string): Promise<DeskEdit[]> {
  const rows = await db
    .selectFrom('desk_edits')
    .selectAll()
    .where('week', '=', week)
    .orderBy('item_key')
    .orderBy('field')
    .execute();
  return rows.map(toDeskEdit);
}

function toDeskEdit(row: Selectable<Database['desk_edits']>): DeskEdit {
  return {
    week: row.week,
    itemKey: row.item_key,
    field: row.field,
    generated: row.generated,
    edited: row.edited ?? null,
    version: row.version,
    editedBy: row.edited_by,
    editedAt: isoTimestamp(row.edited_at),
  };
}

async function saveDeskEdits(
  db: Db,
  { week, itemKey, expectedVersion, changes, by }: DeskEditsSave,
): Promise<SaveEditsResult> {
  return db.transaction().execute(async (tx) => {
    // Two saves of one item (two editors, two servers on PostgreSQL) take turns: the later one sees the new version.
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`desk:${week}:${itemKey}`}))`.execute(tx);
    const current = (await deskEdits(tx, week)).filter((row) => row.itemKey === itemKey);
    const version = current.reduce((max, row) => Math.max(max, row.version), 0);
    if (version !== expectedVersion) return { ok: false, current };
    const next = version + 1;
    for (const change of changes) {
      await tx
        .insertInto('desk_edits')
        .values({
          week,
          item_key: itemKey,
          field: change.field,
          generated: json(change.generated),
          edited: change.edited === null ? null : json(change.edited),
          version: next,
          edited_by: by,
        })
        .onConflict((conflict) =>
          conflict.columns(['week', 'item_key', 'field']).doUpdateSet((eb) => ({
            edited: eb.ref('excluded.edited'),
            version: next,
            edited_by: by,
            edited_at: sql`now()`,
          })),
        )
        .execute();
    }
    return { ok: true, version: next };
  });
}

/** Records the edition's texts as the generated ones (a rebuild, a regeneration) and applies the editor's versions. */
async function keepEditorEdits(db: Db, edition: Edition): Promise<Edition> {
  const rows = await deskEdits(db, edition.date);
  const kept: DeskEdit[] = [];
  for (const row of rows) {
    const generated = fieldValue(edition, row.itemKey, row.field);
    if (generated === undefined) continue;
    if (!sameValue(generated, row.generated)) {
      await db
        .updateTable('desk_edits')
        .set({ generated: toJson(generated) })
        .where('week', '=', row.week)
        .where('item_key', '=', row.itemKey)
        .where('field', '=', row.field)
        .execute();
    }
    kept.push({ ...row, generated });
  }
  return applyEdits(edition, kept);
}

async function deskWeek(db: Db, week: string): Promise<DeskWeek | null> {
  const row = await db.selectFrom('desk_weeks').selectAll().where('week', '=', week).executeTakeFirst();
  if (!row) return null;
  return {
    week: row.week,
    itemCount: row.item_count,
    order: row.item_order,
    updatedBy: row.updated_by,
    updatedAt: isoTimestamp(row.updated_at),
  };
}

async function setDeskWeek(
  db: Db,
  week: string,
  patch: { itemCount?: number | null; order?: string[] | null },
  by: string,
): Promise<void> {
  const values = {
    ...(patch.itemCount !== undefined ? { item_count: patch.itemCount } : {}),
    ...(patch.order !== undefined ? { item_order: patch.order === null ? null : toJson(patch.order) } : {}),
  };
  await db
    .insertInto('desk_weeks')
    .values({ week, updated_by: by, ...values })
    .onConflict((conflict) =>
      conflict.column('week').doUpdateSet({ ...values, updated_by: by, updated_at: sql`now()` }),
    )
    .execute();
}

async function recordApproval(db: Db, week: string, by: string): Promise<void> {
  await db
    .insertInto('approvals')
    .values({ week, approved_by: by })
    .onConflict((conflict) =>
      conflict.column('week').doUpdateSet({ approved_by: by, approved_at: sql`now()` }),
    )
    .execute();
}

async function approval(db: Db, week: string) {
  const row = await db.selectFrom('approvals').selectAll().where('week', '=', week).executeTakeFirst();
  return row ? { approvedBy: row.approved_by, approvedAt: isoTimestamp(row.approved_at) } : null;
}

async function recordAudit(db: Db, entry: Omit<AuditEntry, 'id' | 'at'>): Promise<void> {
  await db
    .insertInto('desk_audit')
    .values({
      editor: entry.editor,
      action: entry.action,
      week: entry.week,
      item_key: entry.itemKey,
      detail: json(entry.detail),
    })
    .execute();
}

async function listAudit(db: Db, options: { week?: string; limit?: number } = {}): Promise<AuditEntry[]> {
  let query = db
    .selectFrom('desk_audit')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(Math.min(Math.max(1, options.limit ?? 200), 1000));
  if (options.week) query = query.where('week', '=', options.week);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    at: isoTimestamp(row.at),
    editor: row.editor,
    action: row.action,
    week: row.week,
    itemKey: row.item_key,
    detail: row.detail,
  }));
}
