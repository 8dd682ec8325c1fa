// The desk's translations: each configured language's text of a week's edition, and the editor's corrections,
// stored as the editor's version of that language (a new translation keeps it) and written to the audit log.
import type { EditionTranslation, TranslatedItem } from '../core/types.js';
import { frozenEdition, frozenMessage } from '../editions/index.js';
import type { TranslationDeps } from './ports.js';
import type { TranslationsView } from './views/translations-page.js';

/** The longest text a field may hold: a summary is a paragraph. */
const MAX_FIELD = 4000;

export async function translationsView(
  deps: TranslationDeps,
  week: string,
  notice: string | null,
): Promise<TranslationsView | null> {
  const original = await deps.store.editions.get(week);
  if (!original) return null;
  const stored = await deps.store.translations.list(week);
  return {
    week,
    original,
    notice,
    languages: deps.config.languages.slice(1).map((language) => {
      const found = stored.find((entry) => entry.translation.language === language);
      return {
        language,
        translation: found?.translation ?? null,
        warnings: found?.warnings ?? [],
        edited: found?.edited ?? false,
      };
    }),
  };
}

export type TranslationEditOutcome = { ok: true } | { ok: false; message: string; status?: number };

/** The editor's version of one language from the desk's form; every field must be filled. */
export async function saveTranslationEdit({
  deps,
  editor,
  week,
  form,
}: {
  deps: TranslationDeps;
  editor: string;
  week: string;
  form: Record<string, string>;
}): Promise<TranslationEditOutcome> {
  const language = form.language ?? '';
  const frozen = await frozenEdition(deps.store, week);
  if (frozen) return { ok: false, status: 409, message: frozenMessage(frozen, 'a translation edit') };
  if (!deps.config.languages.slice(1).includes(language)) {
    return { ok: false, message: `"${language.slice(0, 20)}" is not one of the translated languages.` };
  }
  const [original, stored] = await Promise.all([
    deps.store.editions.get(week),
    deps.store.translations.list(week),
  ]);
  const current = stored.find((entry) => entry.translation.language === language)?.translation;
  if (!original || !current)
    return { ok: false, message: `There is no ${language} translation of ${week} yet.` };
  const text = (name: string) => (form[name] ?? '').replace(/\r\n/g, '\n').trim().slice(0, MAX_FIELD);
  const items: Record<string, TranslatedItem> = {};
  for (const [index, item] of original.items.entries()) {
    if (form[`key:${index}`] !== item.key) {
      return {
        ok: false,
        message: 'The edition changed since the page was loaded: reload it and edit again.',
      };
    }
    const takeaways = [1, 2, 3].map((number) => text(`takeaway${number}:${index}`)) as [
      string,
      string,
      string,
    ];
    items[item.key] = { ...current.items[item.key], summary: text(`summary:${index}`), takeaways };
  }
  const edited: EditionTranslation = { ...current, title: text('title'), intro: text('intro'), items };
  const empty = [
    edited.title,
    edited.intro,
    ...Object.values(items).flatMap((item) => [item.summary, ...item.takeaways]),
  ];
  if (empty.some((value) => !value))
    return { ok: false, message: 'Every field needs a text; none was saved.' };
  await deps.store.translations.saveEdit(week, language, edited);
  await deps.store.desk.recordAudit({
    editor,
    action: 'translation-edit',
    week,
    itemKey: null,
    detail: { language },
  });
  return { ok: true };
}
