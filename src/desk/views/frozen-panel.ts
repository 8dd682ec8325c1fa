// A published (or mailed) week on the board: the revision readers have, when it went out, who got it and every
// correction with its reason. Its one editing action is "Correct this edition": every other change would be refused
// by the edition guard, so none is offered.
import { type Fragment, html, join } from '../../publish/template.js';
import { csrfField } from './layout.js';
import type { BoardView, DeskPageContext } from './view-model.js';

const weekPath = (week: string, action = '') => `/admin/week/${week}${action ? `/${action}` : ''}`;

/** "Send a test to me": the week's mail to the signed-in editor; shown only where mail can go out. */
export function testMailForm(context: DeskPageContext, view: BoardView): Fragment {
  if (!view.canMail) return html``;
  return html`<form method="post" action="${weekPath(view.week, 'test')}" class="inline">${csrfField(context)}\
<button type="submit">Send a test to me</button></form>`;
}

export function renderFrozenPanel(context: DeskPageContext, view: BoardView): Fragment {
  const { edition, frozen } = view;
  if (!edition || !frozen) return html``;
  const revision = frozen.revisions.length + 1;
  const state = [
    frozen.publishedAt ? html`Published ${frozen.publishedAt}.` : html`Not published.`,
    html` Mailed to <strong>${frozen.mailed}</strong> reader(s).`,
  ];
  return html`<section class="panel frozen" aria-labelledby="draft-heading">
<h2 id="draft-heading">Published edition (revision ${revision}): ${edition.title}</h2>
<p class="status">${join(state, '')} Writer: ${edition.writer}. What readers have is frozen: a change is a correction.</p>
${renderRevisions(frozen.revisions)}
${renderMailing(view)}
<p class="intro">${edition.intro}</p>
<p class="actions">\
${frozen.publishedAt ? html`<a href="${weekPath(view.week, 'correct')}" class="correct">Correct this edition</a> · ` : null}\
<a href="${weekPath(view.week, 'preview')}">Preview the page</a> · \
<a href="${weekPath(view.week, 'preview/email')}">Preview the email</a> · \
<a href="${weekPath(view.week, 'readers')}">What readers did</a></p>
${testMailForm(context, view)}
<ol class="edition-items" id="edition-items">
${join(
  edition.items.map(
    (item) => html`<li class="edition-item" data-key="${item.key}">
<p class="item-head"><span class="position">${item.position}.</span> <span class="level">${item.level}</span> \
<a href="${item.url}">${item.title}</a>${item.edited ? html` <span class="tag">edited</span>` : null}</p>
<p class="summary">${item.summary}</p>
<p class="item-key">${item.key} · ${item.writer}</p>
</li>`,
  ),
  '\n',
)}
</ol>
</section>`;
}

function renderRevisions(revisions: NonNullable<BoardView['frozen']>['revisions']): Fragment {
  if (!revisions.length) return html`<p>Revision 1: no correction since.</p>`;
  return html`<table class="revisions"><caption>Corrections since revision 1</caption>
<thead><tr><th scope="col">Revision</th><th scope="col">When</th><th scope="col">By</th><th scope="col">Reason</th></tr></thead>
<tbody>
${join(
  revisions.map(
    (entry) =>
      html`<tr><td>${entry.revision}</td><td>${entry.at}</td><td>${entry.editor}</td><td>${entry.reason}</td></tr>`,
  ),
  '\n',
)}
</tbody></table>`;
}

/** The send's progress and result, and the sends still to make (shown only where mail can go out). */
function renderMailing(view: BoardView): Fragment {
  const mailing = view.frozen?.mailing;
  if (!mailing) return html``;
  const { edition, toMail, notice } = mailing;
  const counts = html`<p class="mailing" role="status">Mail: sent ${edition.sent} · waiting ${edition.waiting} · \
failed ${edition.failed} · uncertain ${edition.uncertain} · skipped ${edition.skipped}.</p>`;
  const send =
    view.canMail && toMail > 0
      ? html`<p><a href="${weekPath(view.week, 'send')}">Send to ${toMail} reader(s)…</a></p>`
      : null;
  const told = notice
    ? html`<p>Correction notice of revision ${notice.revision}: sent to ${notice.sent}; ${notice.toMail} reader(s) \
had an earlier revision and have not been told.\
${
  view.canMail && notice.toMail > 0
    ? html` <a href="${weekPath(view.week, 'notice')}">Mail the notice to ${notice.toMail} reader(s)…</a>`
    : null
}</p>`
    : null;
  return html`${counts}${send}${told}`;
}
