// The editor's desk: the use cases behind /admin. Routes parse the request and call these; each returns what to
// send (a page, a redirect, a file), never touching HTTP itself.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isIsoDay, latestMonday } from '../core/dates.js';
import type { DigestDeps } from '../deps.js';
import { type ListResult, list } from '../editions/index.js';
import { createDeskAuth, DEFAULT_SIGN_IN_LIMITS, type DeskSession, type SignInLimits } from './auth.js';
import { boardView, parseBoardFilter } from './board.js';
import type { DeskOutcome } from './decisions.js';
import type { EditForm } from './editing.js';
import { DESK_CSS, DESK_JS } from './views/assets.js';
import { renderBoard } from './views/board.js';
import { renderItemEdit } from './views/item.js';
import { renderDeskMessage, renderLoginPage } from './views/layout.js';
import { renderApprove, renderAudit } from './views/pages.js';
import type { DeskPageContext } from './views/view-model.js';

// The actions load on first use: they bring the build, the fetcher, the LLM road and the email renderer
// (Readability, the AI SDK, mjml), which an idle `digest serve` should not carry.
const decisions = () => import('./decisions.js');
const editing = () => import('./editing.js');
const publishing = () => import('./publish.js');
const regenerating = () => import('./regenerate.js');
const translating = () => import('./translations.js');

export type { DeskSession, SignInLimits };

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

export interface DeskOptions {
  /** The folder `digest serve` serves: approving publishes into it. */
  siteDir: string;
  /** Where rebuilt drafts' pages go (never the published site); default a private temporary folder. */
  draftDir?: string;
  signInLimits?: SignInLimits;
}

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
  translation: 'The translation was saved.',
};

const PLAN_TTL_MS = 60_000;

/**
 * The email preview shows the mail as a mail client would: its inline styles apply. It runs sandboxed (no script,
 * an opaque origin, so nothing reaches the desk's session) and loads nothing but its images.
 */
export const EMAIL_PREVIEW_POLICY =
  "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src 'self' https: data:; frame-ancestors 'none'";

const page = (html: string, status = 200): DeskReply => ({ kind: 'page', status, html });
const redirect = (location: string): DeskReply => ({ kind: 'redirect', location });

export function checkWeek(week: string): boolean {
  return isIsoDay(week);
}

export function createDesk(deps: DigestDeps, options: DeskOptions) {
  const auth = createDeskAuth(deps, options.signInLimits ?? DEFAULT_SIGN_IN_LIMITS);
  const siteName = deps.config.name;
  let draftDir: Promise<string> | undefined = options.draftDir
    ? Promise.resolve(options.draftDir)
    : undefined;
  const drafts = () => {
    draftDir ??= mkdtemp(join(tmpdir(), 'digest-desk-drafts-'));
    return draftDir;
  };
  const context = (session: DeskSession | null, csrf: string): DeskPageContext => ({
    editor: session?.editor.email ?? null,
    csrf,
    siteName,
  });
  // Ranking a week of 2,000 candidates takes about a second; the board reuses the plan until a desk action changes
  // the week, or for PLAN_TTL_MS (a CLI ingest or decision shows up by then; "Rebuild the draft" refreshes at once).
  const plans = new Map<string, { at: number; result: Promise<ListResult> }>();
  const listWeek = (week: string) => {
    const now = deps.clock.now().getTime();
    const cached = plans.get(week);
    if (cached && now - cached.at < PLAN_TTL_MS) return cached.result;
    const result = list(deps, { week });
    plans.set(week, { at: now, result });
    result.catch(() => plans.delete(week));
    return result;
  };
  const weekUrl = (week: string, path = '') => `/admin/week/${week}${path}`;
  const notice = (done: string | undefined) => (done ? (NOTICES[done] ?? null) : null);

  async function actionContext(session: DeskSession, week: string) {
    plans.delete(week);
    return { editor: session.editor.email, week, draftDir: await drafts() };
  }

  function reply(
    session: DeskSession,
    outcome: DeskOutcome,
    back: string,
    extra: Record<string, string> = {},
  ): DeskReply {
    if (outcome.ok) return redirect(`${back}?${new URLSearchParams({ done: outcome.done, ...extra })}`);
    return page(
      renderDeskMessage(context(session, session.csrf), {
        title: outcome.title,
        message: outcome.message,
        back,
      }),
      outcome.status,
    );
  }

  return {
    auth,
    assets: {
      'desk.css': { contentType: 'text/css; charset=utf-8', body: DESK_CSS },
      'desk.js': { contentType: 'text/javascript; charset=utf-8', body: DESK_JS },
    } as Record<string, { contentType: string; body: string }>,

    loginPage(formToken: string, error: string | null = null, status = 200): DeskReply {
      return page(renderLoginPage(context(null, formToken), { error, next: '/admin' }), status);
    },

    async home(): Promise<DeskReply> {
      const [latest] = await deps.store.listEditions({ limit: 1 });
      return redirect(weekUrl(latest?.date ?? latestMonday(deps.clock.now())));
    },

    async board(
      session: DeskSession,
      week: string,
      query: Record<string, string | undefined>,
    ): Promise<DeskReply> {
      const view = await boardView(deps, week, parseBoardFilter(query), boardNotice(query), listWeek);
      return page(renderBoard(context(session, session.csrf), view));
    },

    async item(
      session: DeskSession,
      week: string,
      query: Record<string, string | undefined>,
    ): Promise<DeskReply> {
      const key = query.key ?? '';
      const cost = query.done === 'regenerated' ? costNotice(query) : undefined;
      const text = notice(query.done);
      const view = await (await editing()).itemEditView(deps, week, key, {
        notice: cost ? `${text ?? ''} ${cost}` : text,
      });
      if (!view) {
        return page(
          renderDeskMessage(context(session, session.csrf), {
            title: 'Not found',
            message: `No draft item "${key}" for ${week}.`,
            back: weekUrl(week),
          }),
          404,
        );
      }
      return page(renderItemEdit(context(session, session.csrf), view));
    },

    async decide(session: DeskSession, week: string, form: Record<string, string>): Promise<DeskReply> {
      const outcome = await (await decisions()).decideOnDesk(deps, await actionContext(session, week), {
        action: form.action ?? '',
        key: form.key ?? '',
        with: form.with ?? '',
        order: form.order ?? '',
      });
      return reply(session, outcome, weekUrl(week));
    },

    async add(session: DeskSession, week: string, form: Record<string, string>): Promise<DeskReply> {
      const outcome = await (await decisions()).addOnDesk(deps, await actionContext(session, week), {
        input: form.input ?? '',
        note: form.note ?? '',
      });
      return reply(session, outcome, weekUrl(week));
    },

    async count(session: DeskSession, week: string, form: Record<string, string>): Promise<DeskReply> {
      return reply(
        session,
        await (await decisions()).setCountOnDesk(deps, await actionContext(session, week), form.count ?? ''),
        weekUrl(week),
      );
    },

    async rebuild(session: DeskSession, week: string): Promise<DeskReply> {
      const { rebuildDraft } = await decisions();
      return reply(session, await rebuildDraft(deps, await actionContext(session, week)), weekUrl(week));
    },

    async edit(session: DeskSession, week: string, form: EditForm, revert = false): Promise<DeskReply> {
      const { revertOnDesk, saveEditOnDesk } = await editing();
      const run = revert ? revertOnDesk : saveEditOnDesk;
      const outcome = await run(deps, await actionContext(session, week), form);
      const back = `${weekUrl(week, '/item')}`;
      if (!outcome.ok && 'conflict' in outcome) {
        return page(renderItemEdit(context(session, session.csrf), outcome.conflict), 409);
      }
      if (outcome.ok)
        return redirect(`${back}?${new URLSearchParams({ key: form.key ?? '', done: outcome.done })}`);
      return reply(session, outcome, weekUrl(week));
    },

    async regenerate(session: DeskSession, week: string, form: Record<string, string>): Promise<DeskReply> {
      const key = form.key ?? '';
      const outcome = await (await regenerating()).regenerateOnDesk(
        deps,
        await actionContext(session, week),
        {
          key,
          writer: form.writer ?? '',
        },
      );
      if (!outcome.ok) return reply(session, outcome, weekUrl(week));
      const extra: Record<string, string> = { key, done: outcome.done };
      if ('spent' in outcome && outcome.spent) {
        extra.calls = String(outcome.spent.calls);
        extra.cost = outcome.spent.costUsd.toFixed(4);
        extra.before = outcome.spent.before.toFixed(4);
        extra.after = outcome.spent.after.toFixed(4);
      }
      return redirect(`${weekUrl(week, '/item')}?${new URLSearchParams(extra)}`);
    },

    async preview(week: string, kind: 'page' | 'email' | 'text'): Promise<DeskReply | null> {
      const preview = await (await publishing()).previewOnDesk(deps, week, kind);
      return preview
        ? {
            kind: 'file',
            status: 200,
            contentType: preview.contentType,
            body: preview.body,
            ...(kind === 'email' ? { contentSecurityPolicy: EMAIL_PREVIEW_POLICY } : {}),
          }
        : null;
    },

    async translations(
      session: DeskSession,
      week: string,
      query: Record<string, string>,
    ): Promise<DeskReply | null> {
      const [module, view] = await Promise.all([
        import('./views/translations.js'),
        translating().then((use) => use.translationsView(deps, week, notice(query.done))),
      ]);
      return view ? page(module.renderTranslations(context(session, session.csrf), view)) : null;
    },

    async saveTranslation(
      session: DeskSession,
      week: string,
      form: Record<string, string>,
    ): Promise<DeskReply> {
      const outcome = await (await translating()).saveTranslationEdit(deps, session.editor.email, week, form);
      if (outcome.ok) return redirect(`${weekUrl(week, '/translations')}?done=translation`);
      return page(
        renderDeskMessage(context(session, session.csrf), {
          title: 'Not saved',
          message: outcome.message,
          back: weekUrl(week, '/translations'),
        }),
        400,
      );
    },

    async approvePage(session: DeskSession, week: string): Promise<DeskReply | null> {
      const view = await (await publishing()).approveView(deps, week);
      return view ? page(renderApprove(context(session, session.csrf), view)) : null;
    },

    async approve(session: DeskSession, week: string): Promise<DeskReply> {
      const outcome = await (await publishing()).approveOnDesk(deps, {
        ...(await actionContext(session, week)),
        siteDir: options.siteDir,
      });
      return reply(session, outcome, weekUrl(week));
    },

    async audit(session: DeskSession): Promise<DeskReply> {
      const entries = await deps.store.listAudit({ limit: 300 });
      return page(
        renderAudit(context(session, session.csrf), {
          entries: entries.map((entry) => ({
            at: entry.at,
            editor: entry.editor,
            action: entry.action,
            week: entry.week,
            itemKey: entry.itemKey,
            detail: JSON.stringify(entry.detail),
          })),
        }),
      );
    },

    notFound(session: DeskSession, message: string): DeskReply {
      return page(
        renderDeskMessage(context(session, session.csrf), { title: 'Not found', message, back: '/admin' }),
        404,
      );
    },
  };

  function boardNotice(query: Record<string, string | undefined>): string | null {
    return notice(query.done);
  }
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

export type Desk = ReturnType<typeof createDesk>;
