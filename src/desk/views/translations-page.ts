// The desk's translations page: each configured language's text of the week's edition beside the original, as a
// form the editor corrects; what the check kept in the original language is listed above it.
import type { Edition, EditionTranslation } from '../../core/types.js';
import { languageName } from '../../publish/preference-fields.js';
import { type Fragment, html, join } from '../../publish/template.js';
import { weekPath } from './board-page.js';
import { csrfField, renderDeskPage } from './layout.js';
import type { DeskPageContext } from './view-model.js';

export interface TranslationEntry {
  language: string;
  translation: EditionTranslation | null;
  /** Fields the check kept in the original language. */
  warnings: string[];
  edited: boolean;
}

export interface TranslationsView {
  week: string;
  original: Edition;
  /** The configured languages other than the written one. */
  languages: TranslationEntry[];
  notice: string | null;
}

function field({
  name,
  label,
  original,
  value,
  language,
}: {
  name: string;
  label: string;
  original: string;
  value: string;
  language: string;
}): Fragment {
  return html`<div class="translation-field"><label for="${language}-${name}">${label}</label>
<p class="original">${original}</p>
<textarea id="${language}-${name}" name="${name}" lang="${language}" rows="3">${value}</textarea></div>`;
}

function itemFields(item: Edition['items'][number], index: number, entry: TranslationEntry): Fragment {
  const text = entry.translation?.items[item.key];
  const takeaways = item.takeaways.map((line, number) =>
    field({
      name: `takeaway${number + 1}:${index}`,
      label: `Takeaway ${number + 1}`,
      original: line,
      value: text?.takeaways[number] ?? line,
      language: entry.language,
    }),
  );
  return html`<fieldset><legend>${index + 1}. ${item.title}</legend>
<input type="hidden" name="key:${index}" value="${item.key}">
${field({ name: `summary:${index}`, label: 'Summary', original: item.summary, value: text?.summary ?? item.summary, language: entry.language })}
${join(takeaways, '\n')}
</fieldset>`;
}

function languageSection(
  context: DeskPageContext,
  view: TranslationsView,
  entry: TranslationEntry,
): Fragment {
  const name = languageName(entry.language);
  const heading = html`<h2 id="lang-${entry.language}">${name} (${entry.language})${entry.edited ? ' · edited' : ''}</h2>`;
  const { translation } = entry;
  if (!translation) {
    return html`<section aria-labelledby="lang-${entry.language}">${heading}
<p>No translation yet: build the week with a model to translate it.</p></section>`;
  }
  const warnings = entry.warnings.length
    ? html`<ul class="message">${entry.warnings.map((warning) => html`<li>${warning}</li>`)}</ul>`
    : null;
  return html`<section aria-labelledby="lang-${entry.language}">${heading}
${warnings}
<form method="post" action="${weekPath(view.week, 'translation')}">${csrfField(context)}
<input type="hidden" name="language" value="${entry.language}">
${field({ name: 'title', label: 'Title', original: view.original.title, value: translation.title, language: entry.language })}
${field({ name: 'intro', label: 'Intro', original: view.original.intro, value: translation.intro, language: entry.language })}
${join(
  view.original.items.map((item, index) => itemFields(item, index, entry)),
  '\n',
)}
<p><button type="submit">Save the ${name} version</button></p>
</form></section>`;
}

export function renderTranslations(context: DeskPageContext, view: TranslationsView): string {
  const sections = view.languages.map((entry) => languageSection(context, view, entry));
  return renderDeskPage(context, {
    title: `Translations ${view.week}`,
    body: html`<h1>Translations of the week of ${view.week}</h1>
${view.notice ? html`<p class="message" role="status">${view.notice}</p>` : null}
${sections.length ? join(sections, '\n') : html`<p>Only one language is configured (config <code>languages</code>).</p>`}
<p><a href="${weekPath(view.week)}">Back to the week</a></p>`,
  });
}
