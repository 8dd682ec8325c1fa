// The desk's pages (what a GET shows): sign-in, the week's board, an item's edit page, the previews, translations,
// the approval page, the audit log and what readers did with a published edition. Each returns a reply; the routes
// only parse the request.
import { latestMonday } from '../core/dates.js';
import { NotReadyError } from '../core/errors.js';
import { readerStats } from '../editions/index.js';
import type { DeskSession } from './auth.js';
import { boardView, parseBoardFilter } from './board.js';
import type { DeskContext } from './desk-context.js';
import {
  costNotice,
  type DeskReply,
  EMAIL_PREVIEW_POLICY,
  messagePage,
  notice,
  page,
  redirect,
  weekUrl,
} from './replies.js';
import { renderApprove, renderAudit } from './views/audit-approve-pages.js';
import { renderBoard } from './views/board-page.js';
import { renderItemEdit } from './views/item-page.js';
import { renderLoginPage } from './views/layout.js';
import { renderReaders } from './views/readers-page.js';

// These load on first use: the previews bring the email renderer, which an idle `digest serve` should not carry.
const editing = () => import('./editing.js');
const publishing = () => import('./desk-approval.js');
const translating = () => import('./desk-translations.js');
const correcting = () => import('./desk-correction.js');

type Query = Record<string, string | undefined>;

export function pages(desk: DeskContext) {
  const { deps } = desk;
  return {
    loginPage(formToken: string, error: string | null = null, status = 200): DeskReply {
      return page(renderLoginPage(desk.loginContext(formToken), { error, next: '/admin' }), status);
    },

    async home(): Promise<DeskReply> {
      const [latest] = await deps.store.editions.list({ limit: 1 });
      return redirect(weekUrl(latest?.date ?? latestMonday(deps.clock.now())));
    },

    async board(session: DeskSession, week: string, query: Query): Promise<DeskReply> {
      const view = await boardView({
        deps,
        week,
        filter: parseBoardFilter(query),
        notice: notice(query.done),
        listWeek: desk.listWeek,
      });
      return page(renderBoard(desk.context(session), view));
    },

    item: (session: DeskSession, week: string, query: Query) => itemPage({ desk, session, week, query }),
    preview: (week: string, kind: 'page' | 'email' | 'text') => previewFile(desk, week, kind),

    async translations(session: DeskSession, week: string, query: Query): Promise<DeskReply | null> {
      const [module, view] = await Promise.all([
        import('./views/translations-page.js'),
        translating().then((use) => use.translationsView(deps, week, notice(query.done))),
      ]);
      return view ? page(module.renderTranslations(desk.context(session), view)) : null;
    },

    /** The confirmation of "Send to N readers" (`kind` edition) or "Mail the notice to N readers" (notice). */
    sendPage: (session: DeskSession, week: string, kind: 'edition' | 'notice') =>
      sendPage(desk, { session, week, kind }),

    async approvePage(session: DeskSession, week: string): Promise<DeskReply | null> {
      const view = await (await publishing()).approveView(deps, week);
      return view ? page(renderApprove(desk.context(session), view)) : null;
    },

    /** "Correct this edition": the correction draft of a published edition. */
    async correctionPage(session: DeskSession, week: string): Promise<DeskReply | null> {
      const [{ correctionView }, { renderCorrection }] = await Promise.all([
        correcting(),
        import('./views/correction-page.js'),
      ]);
      const view = await correctionView(deps, week);
      return view ? page(renderCorrection(desk.context(session), view)) : null;
    },

    audit: (session: DeskSession) => auditPage(desk, session),

    /** What readers did with the week's published edition; null (not found) for a draft. */
    async readers(session: DeskSession, week: string): Promise<DeskReply | null> {
      try {
        return page(renderReaders(desk.context(session), await readerStats(deps, { week })));
      } catch (error) {
        if (error instanceof NotReadyError) return null;
        throw error;
      }
    },

    notFound(session: DeskSession, message: string): DeskReply {
      return messagePage(desk.context(session), { title: 'Not found', message, back: '/admin' }, 404);
    },

    /** A change refused by the desk's rate limit: nothing was done; when it may be sent again. */
    tooManyChanges(session: DeskSession, retryAfterSeconds: number): DeskReply {
      const message = `Too many changes in a short time: nothing was done. Try again in ${retryAfterSeconds} s.`;
      return messagePage(desk.context(session), { title: 'Too many changes', message, back: '/admin' }, 429);
    },
  };
}

async function itemPage({
  desk,
  session,
  week,
  query,
}: {
  desk: DeskContext;
  session: DeskSession;
  week: string;
  query: Query;
}): Promise<DeskReply> {
  const key = query.key ?? '';
  const cost = query.done === 'regenerated' ? costNotice(query) : undefined;
  const text = notice(query.done);
  const view = await (await editing()).itemEditView({
    deps: desk.deps,
    week,
    key,
    extra: {
      notice: cost ? `${text ?? ''} ${cost}` : text,
    },
  });
  if (!view) {
    const message = `No draft item "${key}" for ${week}.`;
    return messagePage(desk.context(session), { title: 'Not found', message, back: weekUrl(week) }, 404);
  }
  return page(renderItemEdit(desk.context(session), view));
}

async function previewFile(
  desk: DeskContext,
  week: string,
  kind: 'page' | 'email' | 'text',
): Promise<DeskReply | null> {
  const preview = await (await publishing()).previewOnDesk(desk.deps, week, kind);
  if (!preview) return null;
  return {
    kind: 'file',
    status: 200,
    contentType: preview.contentType,
    body: preview.body,
    ...(kind === 'email' ? { contentSecurityPolicy: EMAIL_PREVIEW_POLICY } : {}),
  };
}

async function auditPage(desk: DeskContext, session: DeskSession): Promise<DeskReply> {
  const entries = await desk.deps.store.desk.listAudit({ limit: 300 });
  return page(
    renderAudit(desk.context(session), {
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
}

async function sendPage(
  desk: DeskContext,
  { session, week, kind }: { session: DeskSession; week: string; kind: 'edition' | 'notice' },
): Promise<DeskReply | null> {
  const [{ sendView }, { renderSendPage }] = await Promise.all([
    import('./desk-send.js'),
    import('./views/send-page.js'),
  ]);
  const view = await sendView(desk.deps, week, kind);
  return view ? page(renderSendPage(desk.context(session), view)) : null;
}
