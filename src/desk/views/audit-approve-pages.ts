// The desk's audit log and the approval confirmation.
import { html, join } from '../../publish/template.js';
import { weekPath } from './board-page.js';
import { csrfField, renderDeskPage } from './layout.js';
import type { ApproveView, AuditView, DeskPageContext } from './view-model.js';

export function renderAudit(context: DeskPageContext, view: AuditView): string {
  const rows = view.entries.map(
    (entry) => html`<tr><td>${entry.at}</td><td>${entry.editor}</td><td>${entry.action}</td>\
<td>${entry.week ?? ''}</td><td class="item-key">${entry.itemKey ?? ''}</td><td><code>${entry.detail}</code></td></tr>`,
  );
  return renderDeskPage(context, {
    title: 'Audit log',
    body: html`<h1>Audit log</h1>
${
  rows.length
    ? html`<table class="audit"><caption>Every desk action, newest first</caption>
<thead><tr><th scope="col">When</th><th scope="col">Editor</th><th scope="col">Action</th><th scope="col">Week</th>\
<th scope="col">Item</th><th scope="col">Detail</th></tr></thead>
<tbody>
${join(rows, '\n')}
</tbody></table>`
    : html`<p>Nothing yet.</p>`
}`,
  });
}

export function renderApprove(context: DeskPageContext, view: ApproveView): string {
  const flagged = view.flagged.length
    ? html`<p class="message">${view.flagged.length} open flag(s):</p><ul>${join(
        view.flagged.map(
          (item) =>
            html`<li><a href="${weekPath(view.week, 'item')}?key=${encodeURIComponent(item.key)}">${item.title}</a> (${item.status})</li>`,
        ),
        '',
      )}</ul>`
    : html`<p>No open flags.</p>`;
  return renderDeskPage(context, {
    title: `Approve ${view.week}`,
    body: html`<h1>Approve and publish the week of ${view.week}</h1>
<p>“${view.title}”, ${view.items} items.</p>
<p><strong>${view.confirmedSubscribers}</strong> reader(s) will get the mail (confirmed, not sent it already).</p>
${flagged}
${view.thin ? html`<p class="message" role="alert">This edition is thin: ${view.thin}</p>` : null}
${view.approval ? html`<p>Approved by ${view.approval.by} at ${view.approval.at}.</p>` : null}
${view.publishedAt ? html`<p>Published ${view.publishedAt}.</p>` : null}
${
  view.publishedAt
    ? html`<p>It is published: what readers have changes only through a correction.</p>`
    : view.canPublish
      ? html`<p class="message" role="alert">${view.canPublish}</p>`
      : html`<form method="post" action="${weekPath(view.week, 'approve')}">${csrfField(context)}
${
  view.thin
    ? html`<p><input type="checkbox" id="allow-thin" name="allowThin" value="yes" required> \
<label for="allow-thin">Publish it anyway: I saw it is thin</label></p>`
    : null
}
<p><button type="submit">Approve and publish</button></p></form>`
}
<p><a href="${weekPath(view.week, 'preview')}">Preview the page</a> · <a href="${weekPath(view.week, 'translations')}">Translations</a> · <a href="${weekPath(view.week)}">Back to the week</a></p>`,
  });
}
