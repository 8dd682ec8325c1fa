// What the send's confirmation counts: the readers it would mail now, by the language their mail is written in and
// how many chose topics (theirs come first), so an editor sees who gets which version before pressing Send.
import type { Store } from '../store/types.js';

export interface SendBreakdown {
  readers: number;
  byLanguage: { language: string; readers: number }[];
  withTopics: number;
}

const PAGE = 5000;

/** The readers a send of the edition would mail now, counted by their choices; `languages[0]`: the edition's own. */
export async function sendBreakdown(
  store: Pick<Store, 'sendLog' | 'preferences'>,
  { week, languages: offered }: { week: string; languages: string[] },
): Promise<SendBreakdown> {
  const fallback = offered[0] ?? 'en';
  const languages = new Map<string, number>();
  let readers = 0;
  let chose = 0;
  let withTopics = 0;
  let afterId = 0;
  for (;;) {
    const page = await store.sendLog.previewRecipients(week, { afterId, limit: PAGE });
    readers += page.length;
    for (const choice of await store.preferences.many(page.map((row) => row.id))) {
      // A language no longer offered gets the edition's own, as the mail does.
      const language = choice.language && offered.includes(choice.language) ? choice.language : fallback;
      languages.set(language, (languages.get(language) ?? 0) + 1);
      chose++;
      if (choice.topics.length) withTopics++;
    }
    if (page.length < PAGE) break;
    afterId = page.at(-1)?.id ?? afterId;
  }
  // Readers who chose nothing get the edition's own language.
  if (readers > chose) languages.set(fallback, (languages.get(fallback) ?? 0) + readers - chose);
  const byLanguage = [...languages].map(([language, count]) => ({ language, readers: count }));
  byLanguage.sort((a, b) => b.readers - a.readers || a.language.localeCompare(b.language));
  return { readers, byLanguage, withTopics };
}
