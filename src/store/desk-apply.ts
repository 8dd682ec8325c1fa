// Where each desk field lives in an Edition, and putting the editor's versions into one. Pure functions.
import type { Edition } from '../core/types.js';
import type { DeskFieldName } from './schema.js';

export type DeskField = DeskFieldName;

/** The editor's version of one field beside the generated one; item key '' is the edition's title and intro. */
export interface DeskEdit {
  week: string;
  itemKey: string;
  field: DeskField;
  generated: unknown;
  /** null: reverted to the generated text. */
  edited: unknown;
  version: number;
  editedBy: string;
  editedAt: string;
}

/** The item key of the edition's own texts (title and intro). */
export const HEADER_KEY = '';

export function fieldValue(edition: Edition, itemKey: string, field: DeskField): unknown {
  if (itemKey === HEADER_KEY) return field === 'title' || field === 'intro' ? edition[field] : undefined;
  const item = edition.items.find((entry) => entry.key === itemKey);
  if (!item || field === 'title' || field === 'intro') return undefined;
  // An item without facts has an empty line an editor can fill.
  if (field === 'facts') return item.facts ?? [];
  return item[field];
}

/** A copy of `edition` with `value` in the field (unknown items and fields are left alone). */
function withFieldValue({
  edition,
  itemKey,
  field,
  value,
}: {
  edition: Edition;
  itemKey: string;
  field: DeskField;
  value: unknown;
}): Edition {
  if (itemKey === HEADER_KEY) {
    if (field !== 'title' && field !== 'intro') return edition;
    return { ...edition, [field]: value as string };
  }
  if (field === 'title' || field === 'intro') return edition;
  return {
    ...edition,
    items: edition.items.map((item) => (item.key === itemKey ? { ...item, [field]: value } : item)),
  };
}

/** The edition with every row's editor version (or, reverted, its generated text) in place. */
export function applyEdits(edition: Edition, rows: readonly DeskEdit[]): Edition {
  return withRows(edition, rows, (row) => row.edited ?? row.generated);
}

export function sameValue(left: unknown, right: unknown): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}

/** The edition with every edited field back at its generated text (what a writer last produced). */
export function withGenerated(edition: Edition, rows: readonly DeskEdit[]): Edition {
  return withRows(edition, rows, (row) => row.generated);
}

/** Each row's value (as `pick` picks it) put into the field it names, skipping fields the edition lacks. */
function withRows(edition: Edition, rows: readonly DeskEdit[], pick: (row: DeskEdit) => unknown): Edition {
  let result = edition;
  for (const row of rows) {
    if (fieldValue(result, row.itemKey, row.field) === undefined) continue;
    result = withFieldValue({ edition: result, itemKey: row.itemKey, field: row.field, value: pick(row) });
  }
  return result;
}
