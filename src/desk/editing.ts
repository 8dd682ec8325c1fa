// Editing texts on the desk: the editor's version is stored beside the generated one (desk_edits), the stored draft
// shows it, a rebuild keeps it. Each form carries the version it was opened at; a save against a newer version is
// refused and both versions are shown, so nothing is silently lost.
import { type Edition, LEVELS, type Level, type PractitionerFact } from '../core/types.js';
import type { DeskEdit, DeskField } from '../store/desk-apply.js';
import { applyEdits, fieldValue, HEADER_KEY } from '../store/desk-apply.js';
import { factsFromText, factsText } from '../write/facts.js';
import { type DeskActionContext, type DeskOutcome, refuseChange, refused } from './outcome.js';
import type { WeekDeps } from './ports.js';
import type { FieldView, ItemEditView } from './views/view-model.js';

const ITEM_FIELDS: DeskField[] = ['summary', 'takeaways', 'level', 'facts'];
const HEADER_FIELDS: DeskField[] = ['title', 'intro'];
const LABELS: Record<DeskField, string> = {
  summary: 'Summary',
  takeaways: 'Takeaways',
  level: 'Level',
  title: 'Title',
  intro: 'Intro',
  facts: 'Facts',
};

export type EditForm = Record<string, string | undefined>;

const asText = (value: unknown): string =>
  Array.isArray(value)
    ? value.some((entry) => typeof entry === 'object' && entry !== null)
      ? factsText(value as PractitionerFact[])
      : value.map(String).join('\n')
    : value === undefined || value === null
      ? ''
      : String(value);

function fieldView(field: DeskField, row: DeskEdit | undefined, current: unknown): FieldView {
  return {
    field,
    label: LABELS[field],
    generated: asText(row ? row.generated : current),
    edited: row && row.edited !== null ? asText(row.edited) : null,
    editedBy: row ? row.editedBy : null,
    editedAt: row ? row.editedAt : null,
  };
}

function itemVersion(rows: readonly DeskEdit[], key: string): number {
  return rows.filter((row) => row.itemKey === key).reduce((max, row) => Math.max(max, row.version), 0);
}

/** The edit page's data; null when the week has no draft or the item is not in it. */
export async function itemEditView({
  deps,
  week,
  key,
  extra = {},
}: {
  deps: WeekDeps;
  week: string;
  key: string;
  extra?: { notice?: string | null; conflict?: ItemEditView['conflict'] };
}): Promise<ItemEditView | null> {
  const edition = await deps.store.editions.get(week);
  if (!edition) return null;
  const item = key === HEADER_KEY ? null : edition.items.find((entry) => entry.key === key);
  if (key !== HEADER_KEY && !item) return null;
  const rows = (await deps.store.desk.edits(week)).filter((row) => row.itemKey === key);
  const fields = (key === HEADER_KEY ? HEADER_FIELDS : ITEM_FIELDS).map((field) =>
    fieldView(
      field,
      rows.find((row) => row.field === field),
      fieldValue(edition, key, field),
    ),
  );
  const checks = item?.checks as
    | {
        status?: string;
        flagged?: boolean;
        claims?: { kind: string; claim: string; verdict: string; quote: string | null; reason?: string }[];
        notes?: string[];
      }
    | undefined;
  return {
    week,
    key,
    title: item ? item.title : edition.title,
    url: item ? item.url : null,
    version: itemVersion(rows, key),
    fields,
    values: item
      ? { summary: item.summary, takeaways: item.takeaways, level: item.level, facts: factsText(item.facts) }
      : { title: edition.title, intro: edition.intro },
    flags: checks
      ? {
          status: checks.status ?? 'unknown',
          flagged: checks.flagged === true,
          claims: (checks.claims ?? []).map((claim) => ({
            kind: claim.kind,
            claim: claim.claim,
            verdict: claim.verdict,
            quote: claim.quote,
            reason: claim.reason ?? null,
          })),
          notes: checks.notes ?? [],
        }
      : null,
    writer: item ? item.writer : edition.writer,
    conflict: extra.conflict ?? null,
    notice: extra.notice ?? null,
    llmAvailable: Boolean(deps.config.llm.write),
  };
}

type Parsed = { ok: true; values: Partial<Record<DeskField, unknown>> } | { ok: false; message: string };

function parseForm(key: string, form: EditForm, facts: readonly PractitionerFact[]): Parsed {
  const text = (name: string, max: number): string | { error: string } => {
    const value = (form[name] ?? '').replace(/\r\n/g, '\n').trim();
    if (!value) return { error: `"${name}" must not be empty.` };
    if (value.length > max) return { error: `"${name}" must be at most ${max} characters.` };
    return value;
  };
  const fail = (value: unknown): value is { error: string } => typeof value === 'object' && value !== null;
  if (key === HEADER_KEY) {
    const title = text('title', 300);
    const intro = text('intro', 4000);
    for (const value of [title, intro]) if (fail(value)) return { ok: false, message: value.error };
    return { ok: true, values: { title, intro } };
  }
  const summary = text('summary', 4000);
  const takeaways = [text('takeaway1', 1000), text('takeaway2', 1000), text('takeaway3', 1000)];
  for (const value of [summary, ...takeaways]) if (fail(value)) return { ok: false, message: value.error };
  const level = LEVELS.find((name) => name === form.level);
  if (!level) return { ok: false, message: `"level" must be one of ${LEVELS.join(', ')}.` };
  const values: Partial<Record<DeskField, unknown>> = { summary, takeaways, level: level satisfies Level };
  // A form without the field (an older page) leaves the facts as they are; an empty one clears them.
  if (form.facts !== undefined) {
    const line = form.facts.replace(/\r\n/g, '\n').trim();
    if (line.length > 1000) return { ok: false, message: '"facts" must be at most 1000 characters.' };
    values.facts = factsFromText(line, facts);
  }
  return { ok: true, values };
}

type EditOutcome = DeskOutcome | { ok: false; conflict: ItemEditView };
type Change = { field: DeskField; generated: unknown; edited: unknown };
/** One edit form: the item (HEADER_KEY for the title and intro) and the version it was opened at. */
type EditRequest = { key: string; version: number; form: EditForm };

/** Saves the editor's version of an item's texts (`save`), or puts one field back to its generated text (`revert`). */
export async function editOnDesk({
  deps,
  context,
  form,
  mode,
}: {
  deps: WeekDeps;
  context: DeskActionContext;
  form: EditForm;
  mode: 'save' | 'revert';
}): Promise<EditOutcome> {
  const request = { key: form.key ?? '', version: Number.parseInt(form.version ?? '', 10), form };
  return mode === 'save' ? saveEdit(deps, context, request) : revertEdit(deps, context, request);
}

async function saveEdit(
  deps: WeekDeps,
  context: DeskActionContext,
  request: EditRequest,
): Promise<EditOutcome> {
  const { key, version, form } = request;
  const invalid =
    Number.isInteger(version) && version >= 0
      ? null
      : refused(400, 'Not saved', 'The form has no valid "version".');
  const refusal = await refuseChange({ deps, week: context.week, invalid });
  if (refusal) return refusal;
  const edition = await deps.store.editions.get(context.week);
  if (!edition || (key !== HEADER_KEY && !edition.items.some((item) => item.key === key))) {
    return refused(404, 'Not found', `No draft item "${key}" for ${context.week}.`);
  }
  const facts = edition.items.find((item) => item.key === key)?.facts ?? [];
  const parsed = parseForm(key, form, facts);
  if (!parsed.ok) return refused(400, 'Not saved', parsed.message);
  const rows = (await deps.store.desk.edits(context.week)).filter((row) => row.itemKey === key);
  const changes = changedFields({ edition, key, values: parsed.values, rows });
  if (!changes.length) return { ok: true, done: 'unchanged' };
  return commit({ deps, context, target: { edition, request }, changes, action: 'edit' });
}

/** The fields whose value the form changes; one set back to its generated text has no editor's version any more. */
function changedFields({
  edition,
  key,
  values,
  rows,
}: {
  edition: Edition;
  key: string;
  values: Partial<Record<DeskField, unknown>>;
  rows: readonly DeskEdit[];
}): Change[] {
  const changes: Change[] = [];
  for (const [field, value] of Object.entries(values) as [DeskField, unknown][]) {
    const row = rows.find((entry) => entry.field === field);
    const current = fieldValue(edition, key, field);
    if (JSON.stringify(current) === JSON.stringify(value)) continue;
    const generated = row ? row.generated : current;
    changes.push({
      field,
      generated,
      edited: JSON.stringify(generated) === JSON.stringify(value) ? null : value,
    });
  }
  return changes;
}

async function revertEdit(
  deps: WeekDeps,
  context: DeskActionContext,
  request: EditRequest,
): Promise<EditOutcome> {
  const { key, version, form } = request;
  const field = [...ITEM_FIELDS, ...HEADER_FIELDS].find((name) => name === form.field);
  if (!field || !Number.isInteger(version)) {
    return refused(400, 'Not reverted', 'The form needs a "field" and a "version".');
  }
  const published = await refuseChange({ deps, week: context.week });
  if (published) return published;
  const edition = await deps.store.editions.get(context.week);
  const row = (await deps.store.desk.edits(context.week)).find(
    (entry) => entry.itemKey === key && entry.field === field,
  );
  if (!edition || !row) return refused(404, 'Nothing to revert', `No editor's version of ${field}.`);
  const change = { field, generated: row.generated, edited: null };
  return commit({ deps, context, target: { edition, request }, changes: [change], action: 'revert' });
}

/** The form's own values, shown back beside the newer version when someone saved first. */
const KEPT_FIELDS = ['title', 'intro', 'summary', 'takeaway1', 'takeaway2', 'takeaway3', 'level', 'field'];

async function commit({
  deps,
  context,
  target,
  changes,
  action,
}: {
  deps: WeekDeps;
  context: DeskActionContext;
  target: { edition: Edition; request: EditRequest };
  changes: Change[];
  action: 'edit' | 'revert';
}): Promise<EditOutcome> {
  const { edition, request } = target;
  const { key, version } = request;
  const saved = await deps.store.desk.saveEdits({
    week: context.week,
    itemKey: key,
    expectedVersion: version,
    changes,
    by: context.editor,
  });
  if (!saved.ok) return conflict({ deps, context, request, current: saved.current, action });
  // The stored draft shows the editor's versions (and generated text where none): what preview and publish use.
  const rows = await deps.store.desk.edits(context.week);
  await deps.store.editions.save(applyEdits(edition, rows));
  await deps.store.desk.recordAudit({
    editor: context.editor,
    action,
    week: context.week,
    itemKey: key,
    detail: { fields: changes.map((change) => change.field), version: saved.version },
  });
  return { ok: true, done: action === 'edit' ? 'saved' : 'reverted' };
}

/** Someone saved first: the page again, with their newer version beside what this editor sent (nothing is lost). */
async function conflict({
  deps,
  context,
  request,
  current,
  action,
}: {
  deps: WeekDeps;
  context: DeskActionContext;
  request: EditRequest;
  current: readonly DeskEdit[];
  action: 'edit' | 'revert';
}): Promise<EditOutcome> {
  const { key, version, form } = request;
  const yours: Record<string, string> = {};
  for (const name of KEPT_FIELDS) {
    const value = form[name];
    if (value !== undefined) yours[name] = value.slice(0, 4000);
  }
  const theirs = current
    .filter((row) => row.version > version)
    .map((row) => fieldView(row.field, row, undefined));
  const view = await itemEditView({ deps, week: context.week, key, extra: { conflict: { theirs, yours } } });
  await deps.store.desk.recordAudit({
    editor: context.editor,
    action: `${action}-refused`,
    week: context.week,
    itemKey: key,
    detail: { reason: 'changed since opened', openedVersion: version },
  });
  if (view) return { ok: false, conflict: view };
  return refused(409, 'Changed', 'This item changed since you opened it.');
}
