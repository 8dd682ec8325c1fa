// The confirmation of a desk send: how many readers the edition (or the correction notice) goes to, one button.
import { html } from '../../publish/template.js';
import { weekPath } from './board-page.js';
import { csrfField, renderDeskPage } from './layout.js';
import type { DeskPageContext, SendView } from './view-model.js';

export function renderSendPage(context: DeskPageContext, view: SendView): string {
  const notice = view.kind === 'notice';
  const action = notice ? 'notice' : 'send';
  const heading = notice
    ? html`Mail the correction notice of revision ${view.revision} of the week of ${view.week}`
    : html`Send the week of ${view.week} to its readers`;
  const who = notice
    ? html`<p><strong>${view.readers}</strong> reader(s) were mailed an earlier revision and have not had this notice.</p>`
    : html`<p><strong>${view.readers}</strong> confirmed reader(s) have not had it yet; each gets the mail once, in their language and with their topics first.</p>`;
  return renderDeskPage(context, {
    title: notice ? `Correction notice ${view.week}` : `Send ${view.week}`,
    body: html`<h1>${heading}</h1>
<p>“${view.title}”.</p>
${who}
${
  view.readers > 0
    ? html`<form method="post" action="${weekPath(view.week, action)}">${csrfField(context)}
<p><button type="submit">${notice ? 'Mail the notice' : 'Send'} to ${view.readers} reader(s)</button></p></form>`
    : html`<p>Nothing to send: every reader has it.</p>`
}
<p><a href="${weekPath(view.week)}">Back to the week</a></p>`,
  });
}
