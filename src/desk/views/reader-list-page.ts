// The desk's list of readers: counts per status, a search-and-filter form (GET, so a filtered page is a link), one
// page of readers newest first with a link to the next, and the two ways in — add one, import a CSV. Each change
// form says what happens to the reader: a confirmation mail, or, with the consent box ticked, confirmed at once in
// the editor's name. Without mail set up, only the consent path is offered (the server refuses the other).

import { type Fragment, html, join } from '../../publish/template.js';
import type { ImportReport, ReaderPage } from '../../subscribers/index.js';
import { READER_FILTERS } from '../../subscribers/index.js';
import { csrfField, renderDeskPage, scrollingTable } from './layout.js';
import type { DeskPageContext } from './view-model.js';

/** The words after a change, by the redirect's `done`. */
export const READER_NOTICES: Record<string, string> = {
  'added-mailed': 'Added as pending; a confirmation mail is on its way.',
  'added-confirmed': 'Added as confirmed, with your consent assertion recorded.',
  confirmed: 'That reader was pending; now confirmed, with your consent assertion recorded.',
  subscribed: 'That reader is already subscribed: nothing changed.',
  unsubscribed: 'That reader unsubscribed or bounced and stays so: only they can subscribe again.',
  removed: 'The reader and everything stored about them were deleted.',
};

const FILTER_WORDS: Record<(typeof READER_FILTERS)[number], string> = {
  pending: 'Pending',
  confirmed: 'Confirmed',
  unsubscribed: 'Unsubscribed',
  bounced: 'Bounced',
  complained: 'Complained',
};

export interface ReaderListView extends ReaderPage {
  notice: string | null;
  /** A confirmation mail can go out: adding without asserted consent is offered. */
  canMail: boolean;
  languages?: readonly string[];
}

function countsTable(view: ReaderListView): Fragment {
  const cells = READER_FILTERS.map(
    (status) => html`<td><a href="/admin/readers?status=${status}">${view.counts[status]}</a></td>`,
  );
  return scrollingTable(
    'Readers by status',
    html`<table class="reader-counts"><caption>Readers by status (complained: whatever their status now)</caption>
<thead><tr>${join(
      READER_FILTERS.map((status) => html`<th scope="col">${FILTER_WORDS[status]}</th>`),
      '',
    )}</tr></thead>
<tbody><tr>${join(cells, '')}</tr></tbody></table>`,
  );
}

function filterForm(view: ReaderListView, languages: readonly string[]): Fragment {
  const { filter } = view;
  const option = (value: string, label: string, chosen: boolean) =>
    html`<option value="${value}"${chosen ? html` selected` : null}>${label}</option>`;
  return html`<form method="get" action="/admin/readers" class="panel" role="search">
<p><label for="reader-search">Address contains</label><br><input id="reader-search" name="q" type="search" value="${filter.search}"></p>
<p><label for="reader-status">Status</label><br><select id="reader-status" name="status">${option('', 'Any', filter.status === null)}\
${join(
  READER_FILTERS.map((status) => option(status, FILTER_WORDS[status], filter.status === status)),
  '',
)}</select></p>
${
  languages.length > 1
    ? html`<p><label for="reader-language">Edition language</label><br><select id="reader-language" name="language">\
${option('', 'Any', filter.language === null)}${join(
  languages.map((language) => option(language, language, filter.language === language)),
  '',
)}</select></p>`
    : null
}<p><button type="submit">Find</button></p></form>`;
}

function readerRows(view: ReaderListView): Fragment {
  if (view.readers.length === 0) return html`<p>No reader matches.</p>`;
  const rows = view.readers.map(
    (reader) => html`<tr><th scope="row"><a href="/admin/readers/${reader.id}">${reader.address}</a></th>\
<td>${reader.status}${reader.complainedAt ? ' (complained)' : ''}</td><td>${reader.createdAt.slice(0, 10)}</td>\
<td>${reader.confirmedAt?.slice(0, 10) ?? '—'}</td><td>${reader.consentBy ?? '—'}</td></tr>`,
  );
  const next = view.next
    ? html`<p><a href="/admin/readers?${nextQuery(view)}" rel="next">Next page</a></p>`
    : null;
  const table = html`<table class="readers"><caption>Readers, newest first</caption>
<thead><tr><th scope="col">Address</th><th scope="col">Status</th><th scope="col">Added</th>\
<th scope="col">Confirmed</th><th scope="col">Consent asserted by</th></tr></thead>
<tbody>
${join(rows, '\n')}
</tbody></table>`;
  return html`${scrollingTable('Readers', table)}
${next}`;
}

function nextQuery(view: ReaderListView): string {
  const { filter } = view;
  const query = new URLSearchParams({ before: String(view.next) });
  if (filter.search) query.set('q', filter.search);
  if (filter.status) query.set('status', filter.status);
  if (filter.language) query.set('language', filter.language);
  return query.toString();
}

/** The consent box: required when no confirmation mail can go out, so the form never posts what would be refused. */
function consentBox(context: DeskPageContext, id: string, canMail: boolean): Fragment {
  return html`<p><input type="checkbox" id="${id}" name="consent" value="yes"${canMail ? null : html` required`}> \
<label for="${id}">I have their consent: confirm at once (recorded with ${context.editor ?? ''} and the time)</label></p>
<p class="hint">${
    canMail
      ? 'Unticked, each new address gets a confirmation mail and stays pending until its reader clicks the link.'
      : 'Mail is not set up (publish.email.smtp and a public base URL): no confirmation mail can go out, so readers can only be added with your consent assertion.'
  }</p>`;
}

function changeForms(context: DeskPageContext, view: ReaderListView): Fragment {
  return html`<section aria-labelledby="add-heading" class="panel"><h2 id="add-heading">Add a reader</h2>
<form method="post" action="/admin/readers/add">${csrfField(context)}
<p><label for="add-email">E-mail address</label><br><input id="add-email" name="email" type="email" required></p>
${consentBox(context, 'add-consent', view.canMail)}<p><button type="submit">Add</button></p></form></section>
<section aria-labelledby="import-heading" class="panel"><h2 id="import-heading">Import a CSV</h2>
<form method="post" action="/admin/readers/import" enctype="multipart/form-data">${csrfField(context)}
<p><label for="import-file">CSV file with an “email” column (UTF-8, header line first)</label><br>\
<input id="import-file" name="file" type="file" accept=".csv,text/csv" required></p>
${consentBox(context, 'import-consent', view.canMail)}\
<p class="hint">Nobody who unsubscribed or bounced is subscribed again by an import.</p>
<p><button type="submit">Import</button></p></form></section>`;
}

export function renderReaderList(context: DeskPageContext, view: ReaderListView): string {
  return renderDeskPage(context, {
    title: 'Readers',
    body: html`<h1>Readers</h1>
${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : null}
${countsTable(view)}
${filterForm(view, view.languages ?? [])}
${readerRows(view)}
${changeForms(context, view)}`,
  });
}

/** What an import did, each outcome named, and every line it skipped with its number and reason. */
export function renderImportResult(
  context: DeskPageContext,
  result: { report: ImportReport; summary: string },
): string {
  const invalid = result.report.invalid.map(
    (line) => html`<tr><td>${line.line}</td><td>${line.value}</td><td>${line.problem}</td></tr>`,
  );
  return renderDeskPage(context, {
    title: 'Import done',
    body: html`<h1>Import done</h1>
<p class="notice" role="status">${result.summary}.</p>
${
  invalid.length
    ? html`<table class="readers"><caption>Lines skipped (line 1 is the header)</caption>
<thead><tr><th scope="col">Line</th><th scope="col">Value</th><th scope="col">Why</th></tr></thead>
<tbody>${join(invalid, '\n')}</tbody></table>`
    : null
}<p><a href="/admin/readers">Back to the readers</a></p>`,
  });
}
