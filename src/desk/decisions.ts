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
import type { DigestDeps } from '../deps.js';
import { add, build } from '../editions/index.js';

export type DeskOutcome =
  | { ok: true; done: string }
  | { ok: false; status: number; title: string; message: string };

export interface DeskActionContext {
  editor: string;
  week: string;
  /** Where a rebuilt draft's page is written (never the published site). */
  draftDir: string;
}

export const DECIDE_ACTIONS = ['pin', 'skip', 'unpin', 'undo', 'swap', 'up', 'down', 'order'] as const;
export type DecideAction = (typeof DECIDE_ACTIONS)[number];

const refused = (status: number, title: string, message: string): DeskOutcome => ({
  ok: false,
  status,
  title,
  message,
});

export async function refuseIfPublished(deps: DigestDeps, week: string): Promise<DeskOutcome | null> {
  const edition = await deps.store.getEdition(week);
  if (edition?.publishedAt) {
    return refused(
      409,
      'Already published',
      `The edition of ${week} was published at ${edition.publishedAt}; a change now would not reach its readers.`,
    );
  }
  return null;
}

/** Rebuilds the week's draft from the stored candidates and decisions (no ingest; cached LLM answers are reused). */
export async function rebuildDraft(deps: DigestDeps, context: DeskActionContext): Promise<DeskOutcome> {
  try {
    const outcome = await build(deps, {
      week: context.week,
      outDir: context.draftDir,
      ingest: false,
      enrich: false,
      offline: false,
      check: true,
      refresh: false,
    });
    await deps.store.recordAudit({
      editor: context.editor,
      action: 'rebuild',
      week: context.week,
      itemKey: null,
      detail: { items: outcome.result.edition.items.length, writer: outcome.result.edition.writer },
    });
    return { ok: true, done: 'rebuilt' };
  } catch (error) {
    if (error instanceof BuildError || error instanceof ConfigError || error instanceof WriterError) {
      return refused(422, 'The draft could not be rebuilt', error.message);
    }
    throw error;
  }
}

export async function decideOnDesk(
  deps: DigestDeps,
  context: DeskActionContext,
  input: { action: string; key: string; with: string; order: string },
): Promise<DeskOutcome> {
  const { store } = deps;
  const { week, editor } = context;
  const action = DECIDE_ACTIONS.find((name) => name === input.action);
  if (!action) return refused(400, 'Unknown action', `"${input.action.slice(0, 40)}" is not a desk action.`);
  const published = await refuseIfPublished(deps, week);
  if (published) return published;

  if (action === 'up' || action === 'down' || action === 'order')
    return reorder(deps, context, action, input);

  if (!(await store.getItem(input.key)))
    return refused(404, 'No such item', `No stored item has the key "${input.key}".`);
  let detail: Record<string, unknown> = {};
  if (action === 'pin' || action === 'skip') {
    await store.setDeskDecision(week, input.key, action, editor);
  } else if (action === 'unpin' || action === 'undo') {
    await store.setDeskDecision(week, input.key, null, editor);
  } else {
    if (!input.with || !(await store.getItem(input.with))) {
      return refused(400, 'Nothing to swap in', 'Choose a candidate to swap in (field "with").');
    }
    await store.setDeskDecision(week, input.key, 'skip', editor);
    await store.setDeskDecision(week, input.with, 'pin', editor);
    // The candidate takes the place of the item it replaces.
    const edition = await store.getEdition(week);
    const order = edition?.items.map((item) => (item.key === input.key ? input.with : item.key));
    if (order) await store.setDeskWeek(week, { order }, editor);
    detail = { with: input.with };
  }
  await store.recordAudit({ editor, action, week, itemKey: input.key, detail });
  const rebuilt = await rebuildDraft(deps, context);
  return rebuilt.ok ? { ok: true, done: action } : rebuilt;
}

async function reorder(
  deps: DigestDeps,
  context: DeskActionContext,
  action: 'up' | 'down' | 'order',
  input: { key: string; order: string },
): Promise<DeskOutcome> {
  const { store } = deps;
  const edition = await store.getEdition(context.week);
  if (!edition) return refused(404, 'No draft', `There is no draft for ${context.week} yet: build it first.`);
  const keys = edition.items.map((item) => item.key);
  let order: string[];
  if (action === 'order') {
    order = input.order
      .split(/\r?\n/)
      .map((key) => key.trim())
      .filter(Boolean);
    if (
      order.length !== keys.length ||
      new Set(order).size !== keys.length ||
      order.some((key) => !keys.includes(key))
    ) {
      return refused(
        400,
        'Order not applied',
        'The order must list each item of the draft exactly once (field "order").',
      );
    }
  } else {
    const from = keys.indexOf(input.key);
    if (from < 0) return refused(404, 'Not in the draft', `"${input.key}" is not an item of this draft.`);
    const to = action === 'up' ? from - 1 : from + 1;
    order = [...keys];
    if (to >= 0 && to < keys.length) [order[from], order[to]] = [order[to]!, order[from]!];
  }
  await store.setDeskWeek(context.week, { order }, context.editor);
  // Moving items needs no rewriting: the stored draft is put in the new order at once.
  const byKey = new Map(edition.items.map((item) => [item.key, item]));
  await store.saveEdition({ ...edition, items: order.map((key) => byKey.get(key)!) });
  await store.recordAudit({
    editor: context.editor,
    action: action === 'order' ? 'reorder' : `move-${action}`,
    week: context.week,
    itemKey: action === 'order' ? null : input.key,
    detail: { order },
  });
  return { ok: true, done: 'reordered' };
}

export async function setCountOnDesk(
  deps: DigestDeps,
  context: DeskActionContext,
  value: string,
): Promise<DeskOutcome> {
  const count = /^\d{1,2}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!(count >= 1 && count <= 50)) {
    return refused(
      400,
      'Not a number of items',
      'The number of items (field "count") must be a whole number from 1 to 50.',
    );
  }
  const published = await refuseIfPublished(deps, context.week);
  if (published) return published;
  await deps.store.setDeskWeek(context.week, { itemCount: count }, context.editor);
  await deps.store.recordAudit({
    editor: context.editor,
    action: 'count',
    week: context.week,
    itemKey: null,
    detail: { count },
  });
  const rebuilt = await rebuildDraft(deps, context);
  return rebuilt.ok ? { ok: true, done: 'count' } : rebuilt;
}

/** Adds an item by URL or arXiv id through the `add` use case: the guarded client refuses private addresses. */
export async function addOnDesk(
  deps: DigestDeps,
  context: DeskActionContext,
  input: { input: string; note: string },
): Promise<DeskOutcome> {
  const value = input.input.trim();
  if (!value || value.length > 2000) {
    return refused(
      400,
      'Nothing to add',
      'Give a URL or an arXiv id (field "input"), at most 2,000 characters.',
    );
  }
  const published = await refuseIfPublished(deps, context.week);
  if (published) return published;
  let key: string;
  try {
    const item = await add(deps, {
      week: context.week,
      input: value,
      note: input.note.trim().slice(0, 500) || null,
    });
    key = item.key;
  } catch (error) {
    if (
      error instanceof SourceError ||
      error instanceof FetchError ||
      error instanceof ConfigError ||
      error instanceof NotFoundError
    ) {
      await deps.store.recordAudit({
        editor: context.editor,
        action: 'add-refused',
        week: context.week,
        itemKey: null,
        detail: { input: value.slice(0, 300), reason: error.message },
      });
      return refused(422, 'Not added', error.message);
    }
    throw error;
  }
  await deps.store.recordAudit({
    editor: context.editor,
    action: 'add',
    week: context.week,
    itemKey: key,
    detail: { input: value.slice(0, 300) },
  });
  const rebuilt = await rebuildDraft(deps, context);
  return rebuilt.ok ? { ok: true, done: 'added' } : rebuilt;
}
