// An edition in another language: the original with the translated text laid over it. What was not translated (an
// item added since, a field that failed its check) stays in the original language. Only text is translated: each
// takeaway's § link, the practitioner facts and what a paper was read from stay as the original has them.
import type { Edition, EditionTranslation } from './types.js';

export function applyTranslation(edition: Edition, translation: EditionTranslation): Edition {
  return {
    ...edition,
    title: translation.title || edition.title,
    intro: translation.intro || edition.intro,
    items: edition.items.map((item) => {
      const text = translation.items[item.key];
      if (!text) return item;
      // Three takeaways either way, so each keeps its § link (support) by position.
      return {
        ...item,
        summary: text.summary || item.summary,
        takeaways: text.takeaways.every(Boolean) ? text.takeaways : item.takeaways,
        ...(text.levelReason ? { levelReason: text.levelReason } : {}),
      };
    }),
  };
}
