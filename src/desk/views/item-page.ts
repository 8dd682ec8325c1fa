// Editing one item (or the edition's title and intro): the editor's version beside the generated one with a diff,
// "revert to generated", faithfulness flags next to each checked sentence, regeneration, and the refusal shown when
// someone else saved first (both versions on the page: nothing is lost).
import { LEVELS } from '../../core/types.js';
import { type Fragment, html, join } from '../../publish/template.js';
import { weekPath } from './board-page.js';
import { renderDiff } from './diff.js';
import { csrfField, renderDeskPage } from './layout.js';
import type { DeskPageContext, FieldView, ItemEditView } from './view-model.js';

export function renderItemEdit(context: DeskPageContext, view: ItemEditView): string {
  const heading = view.key ? `Edit: ${view.title}` : 'Edit the title and intro';
  const body = html`<h1>${heading}</h1>
<p><a href="${weekPath(view.week)}">Back to the week</a>${
    view.url ? html` · <a href="${view.url}">Source</a>` : null
  }${view.writer ? html` · written by ${view.writer}` : null}</p>
${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : null}
${view.conflict ? renderConflict(view) : null}
${renderForm(context, view)}
${renderVersions(context, view)}
${view.flags ? renderFlags(view) : null}
${renderRegenerate(context, view)}`;
  return renderDeskPage(context, { title: heading, body });
}

function renderForm(context: DeskPageContext, view: ItemEditView): Fragment {
  const { values } = view;
  const fields = view.key
    ? html`<p><label for="edit-summary">Summary</label><br>\
<textarea id="edit-summary" name="summary" rows="6" cols="80" maxlength="4000" required>${values.summary ?? ''}</textarea></p>
<fieldset><legend>Takeaways</legend>
${join(
  [0, 1, 2].map(
    (index) =>
      html`<p><label for="edit-takeaway-${index + 1}">Takeaway ${index + 1}</label><br>\
<textarea id="edit-takeaway-${index + 1}" name="takeaway${index + 1}" rows="2" cols="80" maxlength="1000" required>\
${values.takeaways?.[index] ?? ''}</textarea></p>`,
  ),
  '\n',
)}
</fieldset>
<p><label for="edit-facts">Facts</label> <span class="hint">what a practitioner can use, as the source states it, \
separated by " · " (a link after a label: "Code https://…")</span><br>\
<input id="edit-facts" name="facts" type="text" size="80" maxlength="1000" value="${values.facts ?? ''}"></p>
<p><label for="edit-level">Level</label> <select id="edit-level" name="level">${join(
        LEVELS.map(
          (level) =>
            html`<option value="${level}"${values.level === level ? html` selected` : null}>${level}</option>`,
        ),
        '',
      )}</select></p>`
    : html`<p><label for="edit-title">Title</label><br>\
<input id="edit-title" name="title" type="text" size="80" maxlength="300" required value="${values.title ?? ''}"></p>
<p><label for="edit-intro">Intro</label><br>\
<textarea id="edit-intro" name="intro" rows="5" cols="80" maxlength="4000" required>${values.intro ?? ''}</textarea></p>`;
  return html`<form method="post" action="${weekPath(view.week, 'edit')}" class="edit">${csrfField(context)}
<input type="hidden" name="key" value="${view.key}">
<input type="hidden" name="version" value="${view.version}">
${fields}
<p><button type="submit">Save the editor's version</button></p>
</form>`;
}

function renderVersions(context: DeskPageContext, view: ItemEditView): Fragment {
  const edited = view.fields.filter((field) => field.edited !== null);
  if (!edited.length) return html`<p class="hint">Every field shows the generated text.</p>`;
  return html`<section aria-labelledby="versions-heading"><h2 id="versions-heading">Editor's versions</h2>
${join(
  edited.map(
    (field) => html`<div class="version">
<h3>${field.label}</h3>
<p class="hint">Edited by ${field.editedBy} at ${field.editedAt}. Changes from the generated text:</p>
${renderDiff(field.generated, field.edited ?? '')}
<form method="post" action="${weekPath(view.week, 'revert')}" class="inline">${csrfField(context)}\
<input type="hidden" name="key" value="${view.key}"><input type="hidden" name="field" value="${field.field}">\
<input type="hidden" name="version" value="${view.version}">\
<button type="submit">Revert ${field.label.toLowerCase()} to generated</button></form>
</div>`,
  ),
  '\n',
)}
</section>`;
}

function renderConflict(view: ItemEditView): Fragment {
  const conflict = view.conflict!;
  return html`<section class="conflict" role="alert" aria-labelledby="conflict-heading">
<h2 id="conflict-heading">This item changed since you opened it</h2>
<p>Your save was not applied. The form below now holds the current version; your text is here to copy from.</p>
<h3>Saved by the other editor</h3>
${renderFieldList(conflict.theirs)}
<h3>What you sent</h3>
<dl>${join(
    Object.entries(conflict.yours).map(([name, value]) => html`<dt>${name}</dt><dd><pre>${value}</pre></dd>`),
    '',
  )}</dl>
</section>`;
}

function renderFieldList(fields: FieldView[]): Fragment {
  if (!fields.length) return html`<p>(no field)</p>`;
  return html`<dl>${join(
    fields.map(
      (field) =>
        html`<dt>${field.label}${field.editedBy ? html` (${field.editedBy}, ${field.editedAt})` : null}</dt>\
<dd><pre>${field.edited ?? field.generated}</pre></dd>`,
    ),
    '',
  )}</dl>`;
}

function renderFlags(view: ItemEditView): Fragment {
  const flags = view.flags!;
  return html`<section aria-labelledby="flags-heading" class="${flags.flagged ? 'flags flagged' : 'flags'}">
<h2 id="flags-heading">Faithfulness check: ${flags.status}</h2>
${
  flags.claims.length
    ? html`<ul>${join(
        flags.claims.map(
          (
            claim,
          ) => html`<li class="claim ${claim.verdict}"><p><strong>${claim.verdict}</strong> (${claim.kind}): ${claim.claim}</p>
${
  claim.quote
    ? html`<blockquote>${claim.quote}</blockquote>`
    : html`<p class="hint">No supporting passage was found in the source.</p>`
}${claim.reason ? html`<p class="hint">${claim.reason}</p>` : null}</li>`,
        ),
        '\n',
      )}</ul>`
    : html`<p>No checked sentences.</p>`
}
${
  flags.notes.length
    ? html`<ul class="notes">${join(
        flags.notes.map((note) => html`<li>${note}</li>`),
        '',
      )}</ul>`
    : null
}
</section>`;
}

function renderRegenerate(context: DeskPageContext, view: ItemEditView): Fragment {
  const form = (writer: string, label: string) =>
    html`<form method="post" action="${weekPath(view.week, 'regenerate')}" class="inline">${csrfField(context)}\
<input type="hidden" name="key" value="${view.key}"><input type="hidden" name="writer" value="${writer}">\
<button type="submit">${label}</button></form>`;
  return html`<section aria-labelledby="regenerate-heading"><h2 id="regenerate-heading">Regenerate</h2>
<p class="hint">A new text replaces the generated version only; an editor's version stays until reverted.</p>
${view.llmAvailable ? form('llm', 'Regenerate with the LLM') : null} ${form('extractive', 'Regenerate with the extractive writer')}
</section>`;
}
