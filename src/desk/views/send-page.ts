// The confirmation of a desk send: how many readers the edition (or the correction notice) goes to, one button.
import { type Fragment, html, join } from '../../publish/template.js';
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
    : html`<p><strong>${view.readers}</strong> confirmed reader(s) have not had it yet; each gets the mail once, in their language and with their topics first.</p>
${renderBreakdown(view)}`;
  return renderDeskPage(context, {
    title: notice ? `Correction notice ${view.week}` : `Send ${view.week}`,
    script: !notice,
    body: html`<h1>${heading}</h1>
<p>“${view.title}”.</p>
${who}
${
  view.readers > 0
    ? html`<form method="post" action="${weekPath(view.week, action)}">${csrfField(context)}
<p><button type="submit">${notice ? 'Mail the notice' : 'Send'} to ${view.readers} reader(s)</button></p></form>`
    : html`<p>Nothing to send: every reader has it.</p>`
}
${notice || view.readers === 0 ? null : renderSendAt(context, view)}
<p><a href="${weekPath(view.week)}">Back to the week</a></p>`,
  });
}

/**
 * "Send at…": a time on the editor's wall clock; desk.js fills the zone with the browser's, else the server's
 * (schedule.timeZone) stays, and the editor may type another.
 */
function renderSendAt(context: DeskPageContext, view: SendView): Fragment {
  const scheduled = view.scheduled?.state === 'scheduled' ? view.scheduled : null;
  return html`<h2>Or send at a time</h2>
${
  scheduled
    ? html`<p>Already scheduled for <strong>${scheduled.local} ${scheduled.zone} (UTC ${scheduled.utc})</strong>; a new time replaces it.</p>`
    : null
}<form method="post" action="${weekPath(view.week, 'schedule')}" class="send-at">${csrfField(context)}
<p><label for="send-at">Send at</label> <input type="datetime-local" id="send-at" name="at" required></p>
<p><label for="send-zone">Time zone</label> <input type="text" id="send-zone" name="zone" value="${view.timeZone}" \
data-browser-zone autocomplete="off"> <span class="hint">the time is read in this zone, and shown in UTC too</span></p>
<p><button type="submit">Schedule the send</button></p></form>`;
}

/** Who gets which version: readers per language of their mail, and those whose chosen topics come first. */
function renderBreakdown(view: SendView): Fragment {
  const breakdown = view.breakdown;
  if (!breakdown || view.readers === 0) return html``;
  return html`<table class="send-breakdown"><caption>The ${view.readers} reader(s) by their choices</caption>
<thead><tr><th scope="col">Language of their mail</th><th scope="col">Readers</th></tr></thead>
<tbody>${join(
    breakdown.byLanguage.map((row) => html`<tr><td>${row.language}</td><td>${row.readers}</td></tr>`),
    '',
  )}</tbody></table>
<p>${breakdown.withTopics} of them chose topics: those items come first in their mail.</p>`;
}
