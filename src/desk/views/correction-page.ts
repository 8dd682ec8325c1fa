// The correction draft of a published edition: its texts and levels as a form, the items fixed in their published
// order (no control adds, drops or moves one), and the reason readers will see. Every value is escaped by html``.
import { LEVELS } from '../../core/types.js';
import { html, join } from '../../publish/template.js';
import { weekPath } from './board-page.js';
import { csrfField, renderDeskPage } from './layout.js';
import type { CorrectionView, DeskPageContext } from './view-model.js';

export function renderCorrection(context: DeskPageContext, view: CorrectionView): string {
  const items = view.items.map(
    (item, index) => html`<fieldset class="correction-item">
<legend>Item ${index + 1} <span class="item-key">${item.key}</span></legend>
<p><label for="title-${index}">Title</label><br><input id="title-${index}" name="title-${index}" value="${item.title}" required></p>
<p><label for="summary-${index}">Summary</label><br><textarea id="summary-${index}" name="summary-${index}" rows="4" required>${item.summary}</textarea></p>
${join(
  item.takeaways.map(
    (takeaway, n) =>
      html`<p><label for="takeaway${n + 1}-${index}">Takeaway ${n + 1}</label><br><input id="takeaway${n + 1}-${index}" name="takeaway${n + 1}-${index}" value="${takeaway}"></p>`,
  ),
  '\n',
)}
<p><label for="level-${index}">Level</label> <select id="level-${index}" name="level-${index}">${join(
      LEVELS.map((level) => html`<option${level === item.level ? html` selected` : null}>${level}</option>`),
      '',
    )}</select></p>
</fieldset>`,
  );
  return renderDeskPage(context, {
    title: `Correct ${view.week}`,
    body: html`<h1>Correct the edition of ${view.week}</h1>
<p>It is published (revision ${view.revision}). Approving this correction publishes revision ${view.revision + 1}:
the page says “Corrected on DATE: reason” and links the revision readers had, which stays readable. A correction
changes texts and levels; it cannot add, drop or reorder items.</p>
<form method="post" action="${weekPath(view.week, 'correct')}" class="correction">
${csrfField(context)}
<p><label for="reason">Why it is corrected (shown to readers)</label><br><input id="reason" name="reason" maxlength="500" required></p>
<p><label for="title">Title</label><br><input id="title" name="title" value="${view.title}" required></p>
<p><label for="intro">Intro</label><br><textarea id="intro" name="intro" rows="3" required>${view.intro}</textarea></p>
${join(items, '\n')}
<p><button type="submit">Approve and publish the correction</button></p>
</form>
<p><a href="${weekPath(view.week)}">Back to the week</a></p>`,
  });
}
