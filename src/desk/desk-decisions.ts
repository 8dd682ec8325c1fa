// The desk's decisions: pin, skip, undo, swap, reorder, add by URL or arXiv id, the number of items. Each is stored
// for the week with who made it (decisions, desk_weeks), logged in the audit log, and the draft is rebuilt from them,
// so a later rebuild (CLI or desk) makes the same choices.
import {
  BuildError,
  ConfigError,
  FetchError,
  NotFoundError,
  SourceError,
  WriterError,
} from '../core/errors.js';
import type { AuditEntry } from '../store/desk-edits.js';
import type { Store } from '../store/types.js';
import {
  type DeskActionContext,
  type DeskOutcome,
  publishedRefusal,
  refuseChange,
  refused,
} from './outcome.js';
import type { AuditDeps, DraftDeps, RunsDeps, WeekStoreDeps } from './ports.js';

const DECIDE_ACTIONS = ['pin', 'skip', 'unpin', 'undo', 'swap', 'up', 'down', 'order'] as const;

type AuditNote = Pick<AuditEntry, 'action' | 'itemKey' | 'detail'>;
/** A change to the week, audited, after which the draft is rebuilt. */
type ChangeDeps = WeekStoreDeps & RunsDeps<'rebuildDraft'>;

/** Rebuilds the week's draft from the stored candidates and decisions (no ingest; cached LLM answers are reused). */
export async function rebuildDraft(
  deps: AuditDeps & DraftDeps & RunsDeps<'build'>,
  context: DeskActionContext,
): Promise<DeskOutcome> {
  const refusal = await refuseChange({
    deps,
    week: context.week,
    invalid: null,
    door: 'rebuilding the draft',
  });
  if (refusal) return refusal;
  try {
    const outcome = await deps.runs.build({
      week: context.week,
      outDir: context.draftDir,
      ingest: false,
      enrich: false,
      offline: false,
      check: true,
      refresh: false,
    });
    await audit(deps, context, {
      action: 'rebuild',
      itemKey: null,
      detail: { items: outcome.result.edition.items.length, writer: outcome.result.edition.writer },
    });
    return { ok: true, done: 'rebuilt' };
  } catch (error) {
    const published = publishedRefusal(error);
    if (published) return published;
    if (error instanceof BuildError || error instanceof ConfigError || error instanceof WriterError) {
      return refused(422, 'The draft could not be rebuilt', error.message);
    }
    throw error;
  }
}

function audit(deps: AuditDeps, context: DeskActionContext, note: AuditNote): Promise<void> {
  return deps.store.desk.recordAudit({ editor: context.editor, week: context.week, ...note });
}

/** A decision is stored: log it, then rebuild the draft from the week's decisions. */
async function auditAndRebuild({
  deps,
  context,
  note,
  done,
}: {
  deps: AuditDeps & RunsDeps<'rebuildDraft'>;
  context: DeskActionContext;
  note: AuditNote;
  done: string;
}): Promise<DeskOutcome> {
  await audit(deps, context, note);
  // A job: in `digest serve` the rebuild runs in its own process (desk-jobs.ts).
  const rebuilt = await deps.runs.rebuildDraft(context);
  return rebuilt.ok ? { ok: true, done } : rebuilt;
}

export async function decideOnDesk(
  deps: ChangeDeps & { store: Pick<Store, 'items'> },
  context: DeskActionContext,
  input: { action: string; key: string; with: string; order: string },
): Promise<DeskOutcome> {
  const { store } = deps;
  const { week, editor } = context;
  const action = DECIDE_ACTIONS.find((name) => name === input.action);
  if (!action) return refused(400, 'Unknown action', `"${input.action.slice(0, 40)}" is not a desk action.`);
  const published = await refuseChange({ deps, week, invalid: null, door: `the desk's ${action}` });
  if (published) return published;

  if (action === 'up' || action === 'down' || action === 'order')
    return reorder({ deps, context, action, input });

  if (!(await store.items.get(input.key)))
    return refused(404, 'No such item', `No stored item has the key "${input.key}".`);
  let detail: Record<string, unknown> = {};
  if (action === 'pin' || action === 'skip') {
    await store.decisions.set({ week, itemKey: input.key, decision: action, by: editor });
  } else if (action === 'unpin' || action === 'undo') {
    await store.decisions.set({ week, itemKey: input.key, decision: null, by: editor });
  } else {
    if (!input.with || !(await store.items.get(input.with))) {
      return refused(400, 'Nothing to swap in', 'Choose a candidate to swap in (field "with").');
    }
    await store.decisions.set({ week, itemKey: input.key, decision: 'skip', by: editor });
    await store.decisions.set({ week, itemKey: input.with, decision: 'pin', by: editor });
    // The candidate takes the place of the item it replaces.
    const edition = await store.editions.get(week);
    const order = edition?.items.map((item) => (item.key === input.key ? input.with : item.key));
    if (order) await store.desk.setWeek(week, { order }, editor);
    detail = { with: input.with };
  }
  return auditAndRebuild({ deps, context, note: { action, itemKey: input.key, detail }, done: action });
}

/** The draft's keys in the order asked for, or why it cannot be applied. */
function newOrder(
  keys: string[],
  action: 'up' | 'down' | 'order',
  input: { key: string; order: string },
): string[] | DeskOutcome {
  if (action === 'order') {
    const order = input.order
      .split(/\r?\n/)
      .map((key) => key.trim())
      .filter(Boolean);
    const complete =
      order.length === keys.length &&
      new Set(order).size === keys.length &&
      order.every((key) => keys.includes(key));
    return complete
      ? order
      : refused(
          400,
          'Order not applied',
          'The order must list each item of the draft exactly once (field "order").',
        );
  }
  const from = keys.indexOf(input.key);
  if (from < 0) return refused(404, 'Not in the draft', `"${input.key}" is not an item of this draft.`);
  const to = action === 'up' ? from - 1 : from + 1;
  const order = [...keys];
  if (to >= 0 && to < keys.length) [order[from], order[to]] = [order[to]!, order[from]!];
  return order;
}

async function reorder({
  deps,
  context,
  action,
  input,
}: {
  deps: WeekStoreDeps;
  context: DeskActionContext;
  action: 'up' | 'down' | 'order';
  input: { key: string; order: string };
}): Promise<DeskOutcome> {
  const { store } = deps;
  const edition = await store.editions.get(context.week);
  if (!edition) return refused(404, 'No draft', `There is no draft for ${context.week} yet: build it first.`);
  const order = newOrder(
    edition.items.map((item) => item.key),
    action,
    input,
  );
  if (!Array.isArray(order)) return order;
  await store.desk.setWeek(context.week, { order }, context.editor);
  // Moving items needs no rewriting: the stored draft is put in the new order at once.
  const byKey = new Map(edition.items.map((item) => [item.key, item]));
  await store.editions.save({ ...edition, items: order.map((key) => byKey.get(key)!) });
  await audit(deps, context, {
    action: action === 'order' ? 'reorder' : `move-${action}`,
    itemKey: action === 'order' ? null : input.key,
    detail: { order },
  });
  return { ok: true, done: 'reordered' };
}

const NOT_A_COUNT = refused(
  400,
  'Not a number of items',
  'The number of items (field "count") must be a whole number from 1 to 50.',
);
const NOTHING_TO_ADD = refused(
  400,
  'Nothing to add',
  'Give a URL or an arXiv id (field "input"), at most 2,000 characters.',
);

export async function setCountOnDesk(
  deps: ChangeDeps,
  context: DeskActionContext,
  value: string,
): Promise<DeskOutcome> {
  const count = /^\d{1,2}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  const invalid = count >= 1 && count <= 50 ? null : NOT_A_COUNT;
  const refusal = await refuseChange({ deps, week: context.week, invalid });
  if (refusal) return refusal;
  await deps.store.desk.setWeek(context.week, { itemCount: count }, context.editor);
  return auditAndRebuild({
    deps,
    context,
    note: { action: 'count', itemKey: null, detail: { count } },
    done: 'count',
  });
}

const ADD_REFUSALS = [SourceError, FetchError, ConfigError, NotFoundError];

/** Adds an item by URL or arXiv id through the `add` use case: the guarded client refuses private addresses. */
export async function addOnDesk(
  deps: ChangeDeps & RunsDeps<'add'>,
  context: DeskActionContext,
  input: { input: string; note: string },
): Promise<DeskOutcome> {
  const value = input.input.trim();
  const invalid = value && value.length <= 2000 ? null : NOTHING_TO_ADD;
  const refusal = await refuseChange({ deps, week: context.week, invalid });
  if (refusal) return refusal;
  const shown = value.slice(0, 300);
  let key: string;
  try {
    const note = input.note.trim().slice(0, 500) || null;
    key = (await deps.runs.add({ week: context.week, input: value, note })).key;
  } catch (error) {
    if (!ADD_REFUSALS.some((kind) => error instanceof kind)) throw error;
    const reason = (error as Error).message;
    await audit(deps, context, { action: 'add-refused', itemKey: null, detail: { input: shown, reason } });
    return refused(422, 'Not added', reason);
  }
  return auditAndRebuild({
    deps,
    context,
    note: { action: 'add', itemKey: key, detail: { input: shown } },
    done: 'added',
  });
}
