// Preview exactly what goes out (the same renderers as publishing), and approve → publish with one confirmation.

import { minItemsFor, thinReason } from '../core/edition-thin.js';
import { renderEditionHtml } from '../publish/edition-html.js';
import { renderEmail } from '../publish/email-files.js';
import { senderIdentity } from '../publish/sender-identity.js';
import { siteOptions } from '../publish/site-options.js';
import { isFlagged } from './board.js';
import { readersToMail, startSend } from './desk-send.js';
import { type DeskActionContext, type DeskOutcome, refuseChange, refused } from './outcome.js';
import type { ApprovalDeps, ApprovalSendDeps, PreviewDeps, RunsDeps } from './ports.js';
import type { ApproveView } from './views/view-model.js';

export type Preview = { contentType: string; body: string } | null;

export async function previewOnDesk(
  deps: PreviewDeps,
  week: string,
  kind: 'page' | 'email' | 'text',
): Promise<Preview> {
  const edition = await deps.store.editions.get(week);
  if (!edition) return null;
  const { config } = deps;
  if (kind === 'page') {
    return { contentType: 'text/html; charset=utf-8', body: renderEditionHtml(edition, siteOptions(config)) };
  }
  const email = await renderEmail(edition, {
    email: config.publish.email,
    sender: senderIdentity(config.publish.identity),
    ...(config.publish.baseUrl ? { baseUrl: config.publish.baseUrl } : {}),
  });
  return kind === 'email'
    ? { contentType: 'text/html; charset=utf-8', body: email.html }
    : { contentType: 'text/plain; charset=utf-8', body: email.text };
}

export async function approveView(deps: ApprovalDeps, week: string): Promise<ApproveView | null> {
  const edition = await deps.store.editions.get(week);
  if (!edition) return null;
  const [readers, approval] = await Promise.all([
    readersToMail(deps.store, week),
    deps.store.desk.approval(week),
  ]);
  const { selection, itemsPerEdition } = deps.config;
  return {
    week,
    title: edition.title,
    items: edition.items.length,
    thin: thinReason(edition, minItemsFor(selection.minItems, itemsPerEdition)),
    confirmedSubscribers: readers,
    flagged: edition.items.filter(isFlagged).map((item) => ({
      key: item.key,
      title: item.title,
      status: (item.checks as { status?: string } | undefined)?.status ?? 'flagged',
    })),
    approval: approval ? { by: approval.approvedBy, at: approval.approvedAt } : null,
    publishedAt: edition.publishedAt ?? null,
    canPublish: deps.config.publish.baseUrl
      ? null
      : 'Publishing needs the address the site is served from: set publish.baseUrl in the config.',
  };
}

/** Records the approval (the schedule reads it), then publishes the site into the folder `digest serve` serves. */
export async function approveOnDesk(
  deps: ApprovalDeps & ApprovalSendDeps & RunsDeps<'publish'>,
  context: DeskActionContext & { siteDir: string },
  form: Record<string, string> = {},
): Promise<DeskOutcome> {
  const view = await approveView(deps, context.week);
  if (!view) return refused(404, 'No draft', `There is no draft for ${context.week}.`);
  // Approving again would rewrite what readers have: a correction is approved through its own action.
  const frozen = await refuseChange({ deps, week: context.week, invalid: null, door: 'approving it again' });
  if (frozen) return frozen;
  if (view.canPublish) return refused(422, 'Not published', view.canPublish);
  // A thin edition goes out only when the editor ticked that they saw it is thin: the desk's --allow-thin.
  if (view.thin && form.allowThin !== 'yes') {
    return refused(
      422,
      'Not published',
      `The edition is thin: ${view.thin} Tick "Publish it anyway" to confirm.`,
    );
  }
  await deps.store.desk.recordApproval(context.week, context.editor);
  await deps.store.desk.recordAudit({
    editor: context.editor,
    action: 'approve',
    week: context.week,
    itemKey: null,
    detail: {
      confirmedSubscribers: view.confirmedSubscribers,
      openFlags: view.flagged.length,
      ...(view.thin ? { thin: view.thin } : {}),
    },
  });
  // The editor saw the open flags on the confirmation page and approved: that is the --allow-flagged of the desk.
  const outcome = await deps.runs.publish({
    week: context.week,
    outDir: context.siteDir,
    allowFlagged: true,
    allowThin: true,
  });
  await deps.store.desk.recordAudit({
    editor: context.editor,
    action: 'publish',
    week: context.week,
    itemKey: null,
    detail: { files: outcome.files.length, publishedAt: outcome.edition.publishedAt ?? null },
  });
  if (deps.config.publish.email.smtp && view.confirmedSubscribers > 0) startSend(deps, context, 'edition');
  return { ok: true, done: 'published' };
}
