// What readers did with a published edition, on the desk: a bar chart and a table of each item's clicks (unique
// readers in per-reader mode, share of the edition's clicks, scanner prefetches apart), the mails and what followed
// them, and the trend over the last editions. The charts are plain SVG (presentation attributes, no inline style,
// so the desk's policy holds), each an image with a text alternative; the tables beside them carry the numbers.
import type { EditionStats } from '../../editions/index.js';
import { type Fragment, html, join } from '../../publish/template.js';
import { weekPath } from './board-page.js';
import { renderDeskPage } from './layout.js';
import type { DeskPageContext } from './view-model.js';

const BAR_HEIGHT = 18;
const BAR_GAP = 6;
const CHART_WIDTH = 480;
const LABEL_WIDTH = 56;

const percent = (share: number) => `${Math.round(share * 100)}%`;

/** Horizontal bars, one a row, scaled to the largest value; the label says what each bar is. */
function barChart(options: {
  id: string;
  title: string;
  bars: { label: string; value: number }[];
}): Fragment {
  const largest = Math.max(1, ...options.bars.map((bar) => bar.value));
  const span = CHART_WIDTH - LABEL_WIDTH - 40;
  const height = options.bars.length * (BAR_HEIGHT + BAR_GAP) + BAR_GAP;
  const rows = options.bars.map((bar, index) => {
    const y = BAR_GAP + index * (BAR_HEIGHT + BAR_GAP);
    const width = Math.round((bar.value / largest) * span);
    return html`<text x="0" y="${y + BAR_HEIGHT - 5}" fill="#1f2328" font-size="12">${bar.label}</text>\
<rect x="${LABEL_WIDTH}" y="${y}" width="${width}" height="${BAR_HEIGHT}" fill="#1f5fa8"></rect>\
<text x="${LABEL_WIDTH + width + 4}" y="${y + BAR_HEIGHT - 5}" fill="#1f2328" font-size="12">${bar.value}</text>`;
  });
  return html`<svg class="chart" role="img" aria-labelledby="${options.id}" viewBox="0 0 ${CHART_WIDTH} ${height}" \
width="${CHART_WIDTH}" height="${height}" xmlns="http://www.w3.org/2000/svg"><title id="${options.id}">${options.title}</title>\
${join(rows, '')}</svg>`;
}

function itemTable(stats: EditionStats): Fragment {
  const perReader = stats.items.some((item) => item.uniqueReaders !== null);
  const rows = stats.items.map(
    (
      item,
    ) => html`<tr><td>${item.position}</td><th scope="row"><a href="${item.url}" rel="noopener noreferrer">${item.title}</a></th>\
<td>${item.clicks}</td>${perReader ? html`<td>${item.uniqueReaders ?? 0}</td>` : null}<td>${percent(item.share)}</td>\
<td>${item.prefetched}</td></tr>`,
  );
  return html`<table class="reader-stats"><caption>Clicks per item (link scanners' prefetches counted apart)</caption>
<thead><tr><th scope="col">#</th><th scope="col">Item</th><th scope="col">Clicks</th>\
${perReader ? html`<th scope="col">Readers</th>` : null}<th scope="col">Share</th><th scope="col">Prefetched</th></tr></thead>
<tbody>
${join(rows, '\n')}
</tbody></table>`;
}

function trendTable(stats: EditionStats): Fragment {
  const rows = stats.trend.map(
    (
      point,
    ) => html`<tr><th scope="row"><a href="${weekPath(point.edition, 'readers')}">${point.edition}</a></th>\
<td>${point.clicks}</td><td>${point.sent}</td><td>${point.clicksPerMail ?? '—'}</td><td>${point.prefetched}</td>\
<td>${point.bounced}</td><td>${point.complained}</td><td>${point.unsubscribed}</td></tr>`,
  );
  return html`<table class="reader-trend"><caption>The last editions, newest first</caption>
<thead><tr><th scope="col">Edition</th><th scope="col">Clicks</th><th scope="col">Mails sent</th>\
<th scope="col">Clicks per mail</th><th scope="col">Prefetched</th><th scope="col">Bounces</th>\
<th scope="col">Complaints</th><th scope="col">Unsubscribes</th></tr></thead>
<tbody>
${join(rows, '\n')}
</tbody></table>`;
}

/** What followed the edition's mail until the next edition's: a complaint counted once, apart from unsubscribes. */
function mailTable({ mail }: EditionStats): Fragment {
  return html`<table class="mail-outcomes"><caption>The mail and what followed it, until the next edition</caption>
<thead><tr><th scope="col">Mails sent</th><th scope="col">Bounces</th><th scope="col">Complaints</th>\
<th scope="col">Unsubscribes</th></tr></thead>
<tbody><tr><td>${mail.sent}</td><td>${mail.bounced}</td><td>${mail.complained}</td><td>${mail.unsubscribed}</td></tr></tbody>
</table>`;
}

/** One edition in the trend chart's text alternative: its clicks, and what followed its mail. */
const trendAlternative = (point: EditionStats['trend'][number]) =>
  `${point.edition}: ${point.clicks} click(s), ${point.sent} mail(s), ${point.bounced} bounce(s), ` +
  `${point.complained} complaint(s), ${point.unsubscribed} unsubscribe(s)`;

export function renderReaders(context: DeskPageContext, stats: EditionStats): string {
  return renderDeskPage(context, {
    title: `Readers of ${stats.edition}`,
    body: html`<h1>What readers did with the edition of ${stats.edition}</h1>
<p>“${stats.title}”: <strong>${stats.clicks}</strong> click(s) by readers; ${stats.prefetched} prefetch(es) by link \
scanners, counted apart. Counts only: no reader is named.</p>
${mailTable(stats)}
<section aria-labelledby="items-heading"><h2 id="items-heading">Items</h2>
${barChart({
  id: 'items-chart-title',
  title: `Clicks per item, by place in the edition: ${stats.items.map((item) => `${item.position}: ${item.clicks}`).join(', ')}`,
  bars: stats.items.map((item) => ({ label: `#${item.position}`, value: item.clicks })),
})}
${itemTable(stats)}</section>
<section aria-labelledby="trend-heading"><h2 id="trend-heading">Trend</h2>
${barChart({
  id: 'trend-chart-title',
  title: `Clicks per edition, newest first: ${stats.trend.map(trendAlternative).join('; ')}`,
  bars: stats.trend.map((point) => ({ label: point.edition.slice(5), value: point.clicks })),
})}
${trendTable(stats)}</section>
<p><a href="${weekPath(stats.edition)}">Back to the week</a></p>`,
  });
}
