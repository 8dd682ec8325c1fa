// The desk's actions (what a POST does): decisions, adding, the number of items, rebuilding, edits, regeneration,
// translations and approval. Each runs its use case with who acts, then redirects back with what was done, or shows
// why it was refused.
import type { DeskSession } from './auth.js';
import type { DeskContext } from './desk-context.js';
import type { EditForm } from './editing.js';
import type { DeskOutcome } from './outcome.js';
import { costQuery, type DeskReply, messagePage, outcomeReply, page, redirect, weekUrl } from './replies.js';
import { renderItemEdit } from './views/item-page.js';

// The actions load on first use: they bring the build, the fetcher, the LLM client and the email renderer
// (Readability, the AI SDK, the email renderer), which an idle `digest serve` should not carry.
const decisions = () => import('./desk-decisions.js');
const editing = () => import('./editing.js');
const publishing = () => import('./desk-approval.js');
const translating = () => import('./desk-translations.js');
const correcting = () => import('./desk-correction.js');
const testing = () => import('./desk-test-send.js');
const sending = () => import('./desk-send.js');

type Form = Record<string, string>;

export function actions(desk: DeskContext) {
  const { deps } = desk;
  const back = (session: DeskSession, week: string, outcome: DeskOutcome) =>
    outcomeReply(desk.context(session), outcome, weekUrl(week));
  return {
    async decide(session: DeskSession, week: string, form: Form): Promise<DeskReply> {
      const input = {
        action: form.action ?? '',
        key: form.key ?? '',
        with: form.with ?? '',
        order: form.order ?? '',
      };
      const context = await desk.actionContext(session, week);
      return back(session, week, await (await decisions()).decideOnDesk(deps, context, input));
    },

    // Adding reads the page (or the paper) and rebuilds: a job, in its own process in `digest serve`.
    async add(session: DeskSession, week: string, form: Form): Promise<DeskReply> {
      const context = await desk.actionContext(session, week);
      return back(session, week, await desk.runJob({ kind: 'add', context, form }));
    },

    async count(session: DeskSession, week: string, form: Form): Promise<DeskReply> {
      const context = await desk.actionContext(session, week);
      return back(session, week, await (await decisions()).setCountOnDesk(deps, context, form.count ?? ''));
    },

    async rebuild(session: DeskSession, week: string): Promise<DeskReply> {
      const context = await desk.actionContext(session, week);
      return back(session, week, await deps.runs.rebuildDraft(context));
    },

    edit: (session: DeskSession, week: string, form: EditForm) =>
      editItem({ desk, session, week, form, revert: false }),
    /** The edit's way back: the item's fields return to what the writer wrote. */
    revert: (session: DeskSession, week: string, form: EditForm) =>
      editItem({ desk, session, week, form, revert: true }),
    regenerate: (session: DeskSession, week: string, form: Form) =>
      regenerateItem({ desk, session, week, form }),
    saveTranslation: (session: DeskSession, week: string, form: Form) =>
      saveTranslation({ desk, session, week, form }),

    /** Approves a correction draft: revision N+1, through `digest correct`'s use case. */
    async correct(session: DeskSession, week: string, form: Form): Promise<DeskReply> {
      const context = { ...(await desk.actionContext(session, week)), siteDir: desk.siteDir };
      return back(session, week, await (await correcting()).correctOnDesk(deps, context, form));
    },

    /** "Send a test to me": the week's mail to the signed-in editor. */
    async test(session: DeskSession, week: string): Promise<DeskReply> {
      const context = await desk.actionContext(session, week);
      const testDeps = { ...deps, testMails: desk.testMails };
      return back(session, week, await (await testing()).sendTestOnDesk(testDeps, context));
    },

    /** "Send to N readers": the published edition to every reader not sent it yet, in the background. */
    async send(session: DeskSession, week: string): Promise<DeskReply> {
      const context = await desk.actionContext(session, week);
      return back(session, week, await (await sending()).sendOnDesk(deps, context, 'edition'));
    },

    /** "Mail the notice to N readers": the latest correction's notice to the readers of an earlier revision. */
    async notice(session: DeskSession, week: string): Promise<DeskReply> {
      const context = await desk.actionContext(session, week);
      return back(session, week, await (await sending()).sendOnDesk(deps, context, 'notice'));
    },

    async approve(session: DeskSession, week: string, form: Form): Promise<DeskReply> {
      const context = { ...(await desk.actionContext(session, week)), siteDir: desk.siteDir };
      return back(session, week, await (await publishing()).approveOnDesk(deps, context, form));
    },
  };
}

async function editItem({
  desk,
  session,
  week,
  form,
  revert,
}: {
  desk: DeskContext;
  session: DeskSession;
  week: string;
  form: EditForm;
  revert: boolean;
}): Promise<DeskReply> {
  const outcome = await (await editing()).editOnDesk({
    deps: desk.deps,
    context: await desk.actionContext(session, week),
    form,
    mode: revert ? 'revert' : 'save',
  });
  if (!outcome.ok && 'conflict' in outcome)
    return page(renderItemEdit(desk.context(session), outcome.conflict), 409);
  if (!outcome.ok) return outcomeReply(desk.context(session), outcome, weekUrl(week));
  return redirect(
    `${weekUrl(week, '/item')}?${new URLSearchParams({ key: form.key ?? '', done: outcome.done })}`,
  );
}

/** What a desk action that posts a form for one week works with. */
interface FormAction {
  desk: DeskContext;
  session: DeskSession;
  week: string;
  form: Form;
}

async function regenerateItem({ desk, session, week, form }: FormAction): Promise<DeskReply> {
  const key = form.key ?? '';
  const context = await desk.actionContext(session, week);
  const outcome = await desk.runJob({
    kind: 'regenerate',
    context,
    form: { key, writer: form.writer ?? '' },
  });
  if (!outcome.ok) return outcomeReply(desk.context(session), outcome, weekUrl(week));
  const spent = 'spent' in outcome && outcome.spent ? costQuery(outcome.spent) : {};
  return redirect(`${weekUrl(week, '/item')}?${new URLSearchParams({ key, done: outcome.done, ...spent })}`);
}

async function saveTranslation({ desk, session, week, form }: FormAction): Promise<DeskReply> {
  const outcome = await (await translating()).saveTranslationEdit({
    deps: desk.deps,
    editor: session.editor.email,
    week,
    form,
  });
  if (outcome.ok) return redirect(`${weekUrl(week, '/translations')}?done=translation`);
  const back = weekUrl(week, '/translations');
  return messagePage(
    desk.context(session),
    { title: 'Not saved', message: outcome.message, back },
    outcome.status ?? 400,
  );
}
