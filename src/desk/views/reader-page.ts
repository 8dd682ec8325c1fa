// One reader on the desk: their status history (each change recorded with how it happened: the form, a link, an
// import or add by whom, a bounce or complaint), their edition choices, each mail they were sent with its
// revision, their confirmation and welcome mails, and — in per-reader mode — the items they clicked. "Export" is the
// JSON of `digest subscribers export <email>`; "Remove" deletes the reader with everything stored about them.

import { type Fragment, html, join } from '../../publish/template.js';
import type { SubscriberExport } from '../../store/preferences.js';
import { csrfField, renderDeskPage, scrollingTable } from './layout.js';
import type { DeskPageContext } from './view-model.js';

function table(caption: string, headings: string[], rows: Fragment[]): Fragment {
  if (rows.length === 0) return html`<p>${caption}: none.</p>`;
  return scrollingTable(
    caption,
    html`<table class="readers"><caption>${caption}</caption>
<thead><tr>${join(
      headings.map((heading) => html`<th scope="col">${heading}</th>`),
      '',
    )}</tr></thead>
<tbody>
${join(rows, '\n')}
</tbody></table>`,
  );
}

function preferencesList(preferences: SubscriberExport['preferences']): Fragment {
  if (!preferences) return html`<p>No choices made: the edition as published.</p>`;
  return html`<dl class="signals"><dt>Language</dt><dd>${preferences.language ?? 'the edition’s own'}</dd>\
<dt>Topics</dt><dd>${preferences.topics.join(', ') || 'all'}</dd>\
<dt>Levels</dt><dd>${preferences.levels.join(', ') || 'all'}</dd>\
<dt>Only my topics</dt><dd>${preferences.onlyMyTopics ? 'yes' : 'no'}</dd></dl>`;
}

export function renderReaderRecord(context: DeskPageContext, data: SubscriberExport): string {
  const { subscriber } = data;
  const history = data.statusHistory.map(
    (event) => html`<tr><td>${event.at}</td><td>${event.status}</td><td>${event.how}</td></tr>`,
  );
  const mails = data.sendLog.map(
    (mail) => html`<tr><td>${mail.edition}</td><td>${mail.revision}</td>\
<td>${mail.notice ? `correction notice of revision ${mail.notice}` : 'edition'}</td><td>${mail.state}</td><td>${mail.updatedAt}</td></tr>`,
  );
  const outbox = data.outbox.map(
    (mail) =>
      html`<tr><td>${mail.kind}</td><td>${mail.state}</td><td>${mail.attempts}</td><td>${mail.createdAt}</td></tr>`,
  );
  const clicks = data.clicks.map(
    (click) => html`<tr><td>${click.edition}</td><td>${click.revision}</td><td>${click.itemKey}</td>\
<td>${click.channel}</td><td>${click.at}</td></tr>`,
  );
  return renderDeskPage(context, {
    title: `Reader ${subscriber.address}`,
    body: html`<h1>Reader <span class="item-key">${subscriber.address}</span></h1>
<p>Status: <strong>${subscriber.status}</strong>; bounces: ${subscriber.bounces}.</p>
<section aria-labelledby="history-heading"><h2 id="history-heading">Status history</h2>
${table('Status history, oldest first', ['When', 'Status', 'How'], history)}</section>
<section aria-labelledby="choices-heading"><h2 id="choices-heading">Edition choices</h2>
${preferencesList(data.preferences)}</section>
<section aria-labelledby="mails-heading"><h2 id="mails-heading">Mails</h2>
${table('Editions and notices sent', ['Edition', 'Revision', 'Mail', 'State', 'Last change'], mails)}
${table('Confirmation and welcome mails', ['Kind', 'State', 'Attempts', 'Queued'], outbox)}</section>
<section aria-labelledby="clicks-heading"><h2 id="clicks-heading">Clicks</h2>
${table('Items clicked (per-reader counting only; first click each)', ['Edition', 'Revision', 'Item', 'Channel', 'When'], clicks)}</section>
<section aria-labelledby="act-heading" class="panel"><h2 id="act-heading">Export or remove</h2>
<p><a href="/admin/readers/${subscriber.id}/export">Export everything stored about this reader (JSON)</a></p>
<form method="post" action="/admin/readers/${subscriber.id}/remove">${csrfField(context)}
<p><input type="checkbox" id="remove-sure" name="sure" value="yes" required> \
<label for="remove-sure">Delete this reader, their choices, mail log and clicks for good</label></p>
<p><button type="submit">Remove</button></p></form></section>
<p><a href="/admin/readers">Back to the readers</a></p>`,
  });
}
