// The week's board: the draft edition beside the ranked candidates, with every signal `list` shows, filters and
// the decision forms (plain POST forms: everything works without JavaScript).
import { type Fragment, html, join } from '../../publish/template.js';
import { renderFrozenPanel, testMailForm } from './frozen-panel.js';
import { csrfField, renderDeskPage } from './layout.js';
import type { BoardCandidate, BoardItem, BoardView, DeskPageContext } from './view-model.js';

const SHOW_LABELS: Record<BoardView['filter']['show'], string> = {
  all: 'All candidates',
  chosen: 'Chosen',
  candidates: 'Not chosen',
  pinned: 'Pinned',
  skipped: 'Skipped',
  excluded: 'Excluded',
};

export function weekPath(week: string, action = ''): string {
  return `/admin/week/${week}${action ? `/${action}` : ''}`;
}

export function renderBoard(context: DeskPageContext, view: BoardView): string {
  // A frozen week: what readers have, and a correction as its only change (the guard refuses every other).
  const body = view.frozen
    ? html`<h1>Week of ${view.week}</h1>
${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : null}
${renderFrozenPanel(context, view)}
${renderCandidates(context, view)}`
    : html`<h1>Week of ${view.week}</h1>
${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : null}
${view.thin ? html`<p class="message" role="alert">This draft is thin: ${view.thin}</p>` : null}
${renderEditionPanel(context, view)}
<section aria-labelledby="decisions-heading" class="panel">
<h2 id="decisions-heading">Decisions</h2>
${renderAddForm(context, view)}
${renderCountForm(context, view)}
${renderDecisions(context, view)}
</section>
${renderCandidates(context, view)}`;
  return renderDeskPage(context, { title: `Week of ${view.week}`, body, script: true });
}

function renderEditionPanel(context: DeskPageContext, view: BoardView): Fragment {
  const { edition } = view;
  const rebuild = html`<form method="post" action="${weekPath(view.week, 'rebuild')}" class="inline">${csrfField(context)}\
<button type="submit">${edition ? 'Rebuild the draft' : 'Build the draft'}</button></form>`;
  if (!edition) {
    return html`<section class="panel" aria-labelledby="draft-heading"><h2 id="draft-heading">Draft edition</h2>
<p>No draft for this week yet.</p>${rebuild}</section>`;
  }
  const status = edition.publishedAt
    ? html`Published ${edition.publishedAt}.`
    : view.approval
      ? html`Approved by ${view.approval.by} at ${view.approval.at}.`
      : html`Draft, not approved.`;
  const swapOptions = view.candidates.filter((candidate) => !candidate.chosen).slice(0, 40);
  return html`<section class="panel" aria-labelledby="draft-heading">
<h2 id="draft-heading">${edition.publishedAt ? 'Published edition' : 'Draft edition'}: ${edition.title}</h2>
<p class="status">${status} Writer: ${edition.writer}.${edition.headerEdited ? ' Title or intro edited.' : ''}</p>
<p class="intro">${edition.intro}</p>
<p class="actions"><a href="${weekPath(view.week, 'item')}?key=">Edit title and intro</a> · \
<a href="${weekPath(view.week, 'preview')}">Preview the page</a> · \
<a href="${weekPath(view.week, 'preview/email')}">Preview the email</a> · \
<a href="${weekPath(view.week, 'translations')}">Translations</a> · \
<a href="${weekPath(view.week, 'approve')}">Approve and publish…</a></p>
${rebuild} ${testMailForm(context, view)}
<ol class="edition-items" id="edition-items" data-order-action="${weekPath(view.week, 'decide')}">
${join(
  edition.items.map((item) => renderEditionItem({ context, view, item, swapOptions })),
  '\n',
)}
</ol>
<form method="post" action="${weekPath(view.week, 'decide')}" id="order-form" hidden>${csrfField(context)}\
<input type="hidden" name="action" value="order"><input type="hidden" name="order" value=""></form>
</section>`;
}

function renderEditionItem({
  context,
  view,
  item,
  swapOptions,
}: {
  context: DeskPageContext;
  view: BoardView;
  item: BoardItem;
  swapOptions: BoardCandidate[];
}): Fragment {
  const decide = weekPath(view.week, 'decide');
  const button = (action: string, label: string, description: string) =>
    html`<form method="post" action="${decide}" class="inline">${csrfField(context)}\
<input type="hidden" name="action" value="${action}"><input type="hidden" name="key" value="${item.key}">\
<button type="submit" aria-label="${description}">${label}</button></form>`;
  const swapId = `swap-${item.position}`;
  const swap = swapOptions.length
    ? html`<form method="post" action="${decide}" class="inline">${csrfField(context)}\
<input type="hidden" name="action" value="swap"><input type="hidden" name="key" value="${item.key}">\
<label for="${swapId}">Swap for</label> <select id="${swapId}" name="with" required>\
<option value="">a candidate…</option>\
${join(
  swapOptions.map((candidate) => html`<option value="${candidate.key}">${candidate.title}</option>`),
  '',
)}</select> <button type="submit">Swap</button></form>`
    : null;
  return html`<li class="edition-item" data-key="${item.key}" draggable="false">
<p class="item-head"><span class="position">${item.position}.</span> <span class="level">${item.level}</span> \
<a href="${item.url}">${item.title}</a>${item.edited ? html` <span class="tag">edited</span>` : null}\
${item.flagged ? html` <span class="tag flag">flagged</span>` : null}</p>
<p class="summary">${item.summary}</p>
<p class="item-key">${item.key} · ${item.writer}</p>
<div class="item-actions">\
${button('up', 'Up', `Move ${item.title} up`)} ${button('down', 'Down', `Move ${item.title} down`)} \
${button('skip', 'Skip', `Skip ${item.title}`)} \
<a href="${weekPath(view.week, 'item')}?key=${encodeURIComponent(item.key)}">Edit</a> ${swap}</div>
</li>`;
}

function renderAddForm(context: DeskPageContext, view: BoardView): Fragment {
  return html`<form method="post" action="${weekPath(view.week, 'add')}" class="add">${csrfField(context)}
<p><label for="add-input">Add a URL or arXiv id</label><br>\
<input id="add-input" name="input" type="text" required maxlength="2000" size="50">
<label for="add-note">Note</label> <input id="add-note" name="note" type="text" maxlength="500">
<button type="submit">Add</button></p>
</form>`;
}

function renderCountForm(context: DeskPageContext, view: BoardView): Fragment {
  return html`<form method="post" action="${weekPath(view.week, 'count')}" class="count">${csrfField(context)}
<p><label for="item-count">Items in this edition</label> \
<input id="item-count" name="count" type="number" min="1" max="50" value="${view.itemCount}" required> \
<button type="submit">Set</button> <span class="hint">(configured: ${view.configuredCount})</span></p>
</form>`;
}

function renderDecisions(context: DeskPageContext, view: BoardView): Fragment {
  if (!view.decisions.length) return html`<p>No decisions for this week yet.</p>`;
  return html`<table class="decisions"><caption>Decisions stored for this week</caption>
<thead><tr><th scope="col">Item</th><th scope="col">Decision</th><th scope="col">By</th><th scope="col">When</th>\
<th scope="col">Undo</th></tr></thead>
<tbody>
${join(
  view.decisions.map(
    (decision) =>
      html`<tr><td>${decision.title}<br><span class="item-key">${decision.itemKey}</span></td><td>${decision.decision}</td>\
<td>${decision.by}</td><td>${decision.at}</td>\
<td><form method="post" action="${weekPath(view.week, 'decide')}" class="inline">${csrfField(context)}\
<input type="hidden" name="action" value="undo"><input type="hidden" name="key" value="${decision.itemKey}">\
<button type="submit" aria-label="Undo ${decision.decision} of ${decision.title}">Undo</button></form></td></tr>`,
  ),
  '\n',
)}
</tbody></table>`;
}

function renderCandidates(context: DeskPageContext, view: BoardView): Fragment {
  const { filter } = view;
  const pages = Math.max(1, Math.ceil(view.matchingCandidates / view.pageSize));
  const query = (page: number) =>
    `?${new URLSearchParams({ q: filter.q, show: filter.show, source: filter.source, page: String(page) })}`;
  return html`<section class="panel" aria-labelledby="candidates-heading">
<h2 id="candidates-heading">Candidates (${view.matchingCandidates} of ${view.totalCandidates})</h2>
${view.triage ? html`<p class="hint">${view.triage}</p>` : null}
<form method="get" action="${weekPath(view.week)}" class="filters" role="search">
<label for="filter-q">Search</label> <input id="filter-q" name="q" type="search" value="${filter.q}" maxlength="200">
<label for="filter-show">Show</label> <select id="filter-show" name="show">\
${join(
  Object.entries(SHOW_LABELS).map(
    ([value, label]) =>
      html`<option value="${value}"${filter.show === value ? html` selected` : null}>${label}</option>`,
  ),
  '',
)}</select>
<label for="filter-source">Source</label> <select id="filter-source" name="source"><option value="">Any</option>\
${join(
  view.sources.map(
    (source) =>
      html`<option value="${source}"${filter.source === source ? html` selected` : null}>${source}</option>`,
  ),
  '',
)}</select>
<button type="submit">Filter</button>
</form>
${filter.show === 'excluded' ? renderExcluded(view) : renderCandidateTable(context, view)}
${
  pages > 1
    ? html`<nav aria-label="Candidate pages" class="pages">Page ${filter.page} of ${pages}: \
${filter.page > 1 ? html`<a href="${query(filter.page - 1)}">Previous</a>` : null} \
${filter.page < pages ? html`<a href="${query(filter.page + 1)}">Next</a>` : null}</nav>`
    : null
}
</section>`;
}

function renderExcluded(view: BoardView): Fragment {
  if (!view.excluded.length) return html`<p>Nothing excluded.</p>`;
  return html`<ul class="excluded">${join(
    view.excluded.map((entry) => html`<li><span class="item-key">${entry.key}</span>: ${entry.reason}</li>`),
    '',
  )}</ul>`;
}

const number = (value: number | null, digits = 2) => (value === null ? '–' : value.toFixed(digits));

function renderCandidateTable(context: DeskPageContext, view: BoardView): Fragment {
  if (!view.candidates.length) return html`<p>No candidate matches.</p>`;
  const decide = weekPath(view.week, 'decide');
  const rows = view.candidates.map((candidate) => {
    const action = (name: string, label: string) =>
      html`<form method="post" action="${decide}" class="inline">${csrfField(context)}\
<input type="hidden" name="action" value="${name}"><input type="hidden" name="key" value="${candidate.key}">\
<button type="submit" aria-label="${label} ${candidate.title}">${label}</button></form>`;
    return html`<tr${candidate.chosen ? html` class="chosen"` : null}>
<td>${candidate.rank}</td>
<td><a href="${candidate.url}">${candidate.title}</a><br><span class="item-key">${candidate.key}</span>\
<details><summary>Signals</summary><dl class="signals">${join(
      Object.entries(candidate.signals).map(([name, value]) => html`<dt>${name}</dt><dd>${value}</dd>`),
      '',
    )}</dl></details></td>
<td>${candidate.source}</td>
<td>${number(candidate.score, 3)}</td>
<td>${number(candidate.relevance)}</td>
<td>${number(candidate.triage, 1)}</td>
<td>${candidate.upvotes ?? '–'}</td>
<td>${candidate.citations ?? '–'}</td>
<td>${candidate.why}</td>
${view.frozen ? null : html`<td>${candidate.pinned ? action('unpin', 'Unpin') : action('pin', 'Pin')} ${action('skip', 'Skip')}</td>`}
</tr>`;
  });
  return html`<table class="candidates"><caption>Ranked as the build ranks them</caption>
<thead><tr><th scope="col">Rank</th><th scope="col">Item</th><th scope="col">Source</th><th scope="col">Score</th>\
<th scope="col">Relevance</th><th scope="col">Triage</th><th scope="col">Upvotes</th><th scope="col">Citations</th>\
<th scope="col">Why</th>${view.frozen ? null : html`<th scope="col">Decide</th>`}</tr></thead>
<tbody>
${join(rows, '\n')}
</tbody></table>`;
}
