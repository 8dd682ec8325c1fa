// The edition choices a reader makes: language, topics (the ranking's list) and levels. One fragment for the
// subscribe form (optional, folded) and the preferences page behind the signed link of every mail.
import { LEVELS, type ReaderPreferences } from '../core/types.js';
import { TOPIC_CHOICES } from '../select/topic-match.js';
import { type Fragment, html } from './template.js';

/** A language tag's own name for itself ("de" → "Deutsch"), or the tag when the runtime does not know it. */
export function languageName(tag: string): string {
  try {
    const name = new Intl.DisplayNames([tag], { type: 'language' }).of(tag);
    return name ? name.charAt(0).toLocaleUpperCase(tag) + name.slice(1) : tag;
  } catch {
    return tag;
  }
}

export interface PreferenceFieldsOptions {
  /** Configured languages, first = the written one; one language: no choice shown. */
  languages: readonly string[];
  current?: ReaderPreferences;
  /** Distinguishes the ids of two forms on one page. */
  idPrefix?: string;
}

const checked = (on: boolean) => (on ? html` checked` : null);

export function preferenceFields(options: PreferenceFieldsOptions): Fragment {
  const current = options.current;
  const prefix = options.idPrefix ?? 'pref';
  const language =
    options.languages.length > 1
      ? html`<p><label for="${prefix}-language">Language</label>
<select id="${prefix}-language" name="language">${options.languages.map(
          (tag) =>
            html`<option value="${tag}" lang="${tag}"${(current?.language ?? options.languages[0]) === tag ? html` selected` : null}>${languageName(tag)}</option>`,
        )}</select></p>`
      : null;
  const topics = TOPIC_CHOICES.map(
    (topic) =>
      html`<label><input type="checkbox" name="topics[]" value="${topic.name}"${checked(current?.topics.includes(topic.name) ?? false)}> ${topic.label}</label> `,
  );
  const levels = LEVELS.map(
    (level) =>
      html`<label><input type="checkbox" name="levels[]" value="${level}"${checked(current?.levels.includes(level) ?? false)}> ${level}</label> `,
  );
  return html`${language}
<fieldset><legend>Topics first</legend>${topics}</fieldset>
<fieldset><legend>Levels (none ticked: all)</legend>${levels}</fieldset>
<p><label><input type="checkbox" name="onlyMyTopics" value="1"${checked(current?.onlyMyTopics ?? false)}> Only my topics and levels in full; the rest as a list of titles</label></p>`;
}
