// The words around an edition (not its content) in each language a site may publish: the mail's and the page's
// chrome. A language without its own table uses English words; the edition's content is translated by the model.
import type { Level } from '../core/types.js';

export interface UiText {
  viewInBrowser: string;
  readOnWeb: string;
  takeaways: string;
  /** "You receive {name} because you subscribed." */
  youReceive(name: string): string;
  unsubscribe: string;
  alsoInEdition: string;
  yourEdition: string;
  /** "12 papers" */
  papers(count: number): string;
  levels: Record<Level, string>;
  /** The page's link to this edition in other languages. */
  otherLanguages: string;
  /** Under a translated page: the text is a machine translation of the original. */
  translatedNote: string;
  noItemsOnTopics: string;
}

const EN: UiText = {
  viewInBrowser: 'View in your browser',
  readOnWeb: 'Read it on the web',
  takeaways: 'Takeaways',
  youReceive: (name) => `You receive ${name} because you subscribed.`,
  unsubscribe: 'Unsubscribe',
  alsoInEdition: 'Also in this edition',
  yourEdition: 'Choose your topics and language',
  papers: (count) => `${count} ${count === 1 ? 'paper' : 'papers'}`,
  levels: { Accessible: 'Accessible', Intermediate: 'Intermediate', Advanced: 'Advanced' },
  otherLanguages: 'This edition in',
  translatedNote: 'Translated by a language model from the original edition.',
  noItemsOnTopics: 'Nothing on your topics this week: here is the whole edition.',
};

const TABLES: Record<string, UiText> = {
  en: EN,
  de: {
    viewInBrowser: 'Im Browser ansehen',
    readOnWeb: 'Im Web lesen',
    takeaways: 'Das Wichtigste',
    youReceive: (name) => `Sie erhalten ${name}, weil Sie sich angemeldet haben.`,
    unsubscribe: 'Abmelden',
    alsoInEdition: 'Außerdem in dieser Ausgabe',
    yourEdition: 'Themen und Sprache wählen',
    papers: (count) => `${count} ${count === 1 ? 'Beitrag' : 'Beiträge'}`,
    levels: { Accessible: 'Einsteiger', Intermediate: 'Fortgeschritten', Advanced: 'Experten' },
    otherLanguages: 'Diese Ausgabe auf',
    translatedNote: 'Von einem Sprachmodell aus der Originalausgabe übersetzt.',
    noItemsOnTopics: 'Diese Woche nichts zu Ihren Themen: hier die ganze Ausgabe.',
  },
  fr: {
    viewInBrowser: 'Voir dans le navigateur',
    readOnWeb: 'Lire sur le web',
    takeaways: 'À retenir',
    youReceive: (name) => `Vous recevez ${name} car vous êtes abonné·e.`,
    unsubscribe: 'Se désabonner',
    alsoInEdition: 'Aussi dans cette édition',
    yourEdition: 'Choisir vos sujets et votre langue',
    papers: (count) => `${count} ${count === 1 ? 'article' : 'articles'}`,
    levels: { Accessible: 'Accessible', Intermediate: 'Intermédiaire', Advanced: 'Avancé' },
    otherLanguages: 'Cette édition en',
    translatedNote: "Traduit par un modèle de langue à partir de l'édition originale.",
    noItemsOnTopics: "Rien sur vos sujets cette semaine : voici toute l'édition.",
  },
  zh: {
    viewInBrowser: '在浏览器中查看',
    readOnWeb: '在网页上阅读',
    takeaways: '要点',
    youReceive: (name) => `您收到 ${name}，因为您订阅了它。`,
    unsubscribe: '退订',
    alsoInEdition: '本期还有',
    yourEdition: '选择您的主题和语言',
    papers: (count) => `${count} 篇论文`,
    levels: { Accessible: '入门', Intermediate: '进阶', Advanced: '高级' },
    otherLanguages: '本期其他语言',
    translatedNote: '由语言模型根据原版翻译。',
    noItemsOnTopics: '本周没有您关注主题的内容：以下是完整的一期。',
  },
};

/** The table for a tag: exact ("de"), then its primary language ("zh-CN" → "zh"), else English. */
export function uiText(language: string | undefined): UiText {
  if (!language) return EN;
  const lower = language.toLowerCase();
  return TABLES[lower] ?? TABLES[lower.split('-')[0] ?? ''] ?? EN;
}

/** "May 4, 2026" in English (as before), "4. Mai 2026" in German… */
export function longDateIn(day: string, language: string | undefined): string {
  const locale = !language || language === 'en' ? 'en-US' : language;
  try {
    return new Date(`${day}T00:00:00Z`).toLocaleDateString(locale, {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      timeZone: 'UTC',
    });
  } catch {
    return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { timeZone: 'UTC' });
  }
}
