// What the desk answers (a page, a redirect, a file) and the words a page shows after an action; the routes turn a
// reply into HTTP. A redirect carries only a word (`done=pin`) or numbers, which the next page maps to its text.
import type { DeskOutcome } from './outcome.js';
import { renderDeskMessage } from './views/layout.js';
import type { DeskPageContext } from './views/view-model.js';

export type DeskReply =
  | { kind: 'page'; status: number; html: string }
  | { kind: 'redirect'; location: string }
  | {
      kind: 'file';
      status: number;
      contentType: string;
      body: string;
      /** A policy of its own for this answer (the email preview), instead of the site's. */
      contentSecurityPolicy?: string;
    };

/**
 * The email preview shows the mail as a mail client would: its inline styles apply. It runs sandboxed (no script,
 * an opaque origin, so nothing reaches the desk's session) and loads nothing but its images.
 */
export const EMAIL_PREVIEW_POLICY =
  "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src 'self' https: data:; frame-ancestors 'none'";

const NOTICES: Record<string, string> = {
  pin: 'Pinned; the draft was rebuilt.',
  skip: 'Skipped; the draft was rebuilt.',
  unpin: 'Pin removed; the draft was rebuilt.',
  undo: 'Decision removed; the draft was rebuilt.',
  swap: 'Swapped; the draft was rebuilt.',
  reordered: 'Order saved.',
  added: 'Added and pinned; the draft was rebuilt.',
  count: 'Number of items saved; the draft was rebuilt.',
  rebuilt: 'The draft was rebuilt.',
  saved: "The editor's version was saved.",
  unchanged: 'Nothing changed.',
  reverted: 'Reverted to the generated text.',
  regenerated: 'Regenerated; an editor’s version, if any, stays in place.',
  published: 'Approved and published.',
  tested:
    'A test was mailed to you: its subject starts "[Test]"; its links count nothing and no reader got it.',
  translation: 'The translation was saved.',
  corrected: 'Corrected: the new revision is live; the earlier one stays readable at its own page.',
  sending: 'Sending: each reader gets the mail once; the counts below follow the send.',
  'notice-sending': 'Mailing the correction notice: each reader of an earlier revision gets it once.',
};

export const page = (html: string, status = 200): DeskReply => ({ kind: 'page', status, html });
export const redirect = (location: string): DeskReply => ({ kind: 'redirect', location });
export const weekUrl = (week: string, path = '') => `/admin/week/${week}${path}`;

/** The text for a redirect's `done` word; null for none or an unknown one. */
export const notice = (done: string | undefined) => (done ? (NOTICES[done] ?? null) : null);

export function messagePage(
  context: DeskPageContext,
  message: { title: string; message: string; back: string },
  status: number,
): DeskReply {
  return page(renderDeskMessage(context, message), status);
}

/** An action's answer: back to `back` saying what was done, or a page saying why it was refused. */
export function outcomeReply(context: DeskPageContext, outcome: DeskOutcome, back: string): DeskReply {
  if (outcome.ok) return redirect(`${back}?${new URLSearchParams({ done: outcome.done })}`);
  const correct = outcome.correct ? weekUrl(outcome.correct, '/correct') : undefined;
  return page(
    renderDeskMessage(context, {
      title: outcome.title,
      message: outcome.message,
      back,
      ...(correct ? { correct } : {}),
    }),
    outcome.status,
  );
}

/** A regeneration's spending as the redirect's numbers, read back by costNotice(). */
export function costQuery(spent: {
  calls: number;
  costUsd: number;
  before: number;
  after: number;
}): Record<string, string> {
  return {
    calls: String(spent.calls),
    cost: spent.costUsd.toFixed(4),
    before: spent.before.toFixed(4),
    after: spent.after.toFixed(4),
  };
}

/** The regeneration's cost line from the redirect's numbers (parsed, so nothing else reaches the page). */
export function costNotice(query: Record<string, string | undefined>): string | undefined {
  const number = (value: string | undefined) => {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : null;
  };
  const calls = number(query.calls);
  const cost = number(query.cost);
  if (calls === null || cost === null) return undefined;
  return `Regenerated with ${calls} model call(s), $${cost.toFixed(4)}; the edition's LLM cost went from $${(number(query.before) ?? 0).toFixed(4)} to $${(number(query.after) ?? 0).toFixed(4)}.`;
}
