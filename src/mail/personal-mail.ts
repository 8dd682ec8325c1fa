// Each reader their edition: which items a reader's mail shows in full (their topics and levels first, or only),
// which it names under "also in this edition", and in which language. Readers who chose alike get the same mail, so
// each distinct variant is rendered once (rendering is the expensive part) and every reader's copy only swaps tokens.

import { itemAnchors } from '../core/anchors.js';
import { wantedLevels } from '../core/reader-choices.js';
import type { Edition, ReaderPreferences } from '../core/types.js';
import { uiText } from '../publish/ui-text.js';
import { itemTopics } from '../select/topic-match.js';
import {
  type EditionMail,
  type EditionMailOptions,
  type OutgoingMail,
  prepareEditionMail,
} from './edition-mail.js';

/** One language's edition: the items in the same order as the written one, and its page. */
export interface LanguageEdition {
  edition: Edition;
  /** Absolute URL of the edition's page in this language. */
  pageUrl: string;
}

export interface ReaderMailPlan {
  language: string;
  /** Indexes of the items shown in full, in mail order. */
  full: number[];
  /** Indexes of the items named only. */
  also: number[];
  /** Nothing matched the reader's choices: the whole edition, with a line saying so. */
  nothingMatched: boolean;
}

/**
 * The reader's mail: items on their topics and of their levels first; the rest of their levels after (or, with
 * "only my topics", named below); items of levels they did not want are named, never shown. A reader with no
 * choices gets the edition as it is.
 */
export function planReaderMail({
  edition,
  topicsOfItems,
  preferences,
  languages,
}: {
  edition: Edition;
  topicsOfItems: readonly (readonly string[])[];
  preferences: ReaderPreferences | null;
  languages: readonly string[];
}): ReaderMailPlan {
  const written = languages[0] ?? 'en';
  const language =
    preferences?.language && languages.includes(preferences.language) ? preferences.language : written;
  const all = edition.items.map((_, index) => index);
  if (!preferences) return { language, full: all, also: [], nothingMatched: false };
  const levels = wantedLevels(preferences);
  const topics = new Set(preferences.topics);
  const wanted = all.filter((index) => levels.includes(edition.items[index]!.level));
  const mine = wanted.filter(
    (index) => topics.size === 0 || (topicsOfItems[index] ?? []).some((topic) => topics.has(topic)),
  );
  if (mine.length === 0) return { language, full: all, also: [], nothingMatched: true };
  const full = preferences.onlyMyTopics
    ? mine
    : [...mine, ...wanted.filter((index) => !mine.includes(index))];
  return { language, full, also: all.filter((index) => !full.includes(index)), nothingMatched: false };
}

export function planKey(plan: ReaderMailPlan): string {
  return `${plan.language}|${plan.full.join(',')}|${plan.also.join(',')}|${plan.nothingMatched ? 1 : 0}`;
}

export interface PersonalRecipient {
  subscriberId: number;
  address: string;
  preferences: ReaderPreferences | null;
  token: string;
  preferencesToken: string;
  /** Per-reader counted links: the reader's signed part of each /r/ link. */
  clickTag?: string | undefined;
  /** The latest revision of the edition the reader was sent before (store/send-log.ts); a correction notice links it. */
  hadRevision?: number | null | undefined;
}

export interface PersonalMails {
  edition: string;
  envelopeFrom: string;
  compose(recipient: PersonalRecipient): Promise<OutgoingMail>;
  /** Distinct variants composed for readers so far (the plain one rendered up front counts only once a reader gets it). */
  variants(): number;
}

export interface PersonalMailsOptions extends Omit<EditionMailOptions, 'variant' | 'preferencesLink'> {
  /** The edition in each language it is published in; the first entry is the written language. */
  editions: ReadonlyMap<string, LanguageEdition>;
  /** Put before every variant's subject: "[Test] " marks an editor's test mail. */
  subjectPrefix?: string;
}

export async function preparePersonalMails(options: PersonalMailsOptions): Promise<PersonalMails> {
  const { editions, subjectPrefix, ...mailOptions } = options;
  const languages = [...editions.keys()];
  const written = editions.get(languages[0] ?? '');
  if (!written) throw new Error('a personal send needs the edition in its written language');
  const original = written.edition;
  // Topic terms are English words: an item's topics come from the written edition, for every language.
  const topicsOfItems = original.items.map(itemTopics);
  const anchors = itemAnchors(original.items);
  const variants = new Map<string, Promise<EditionMail>>();
  // The plain edition, rendered up front: it checks the sender and the template before any row is claimed.
  const plain = planReaderMail({ edition: original, topicsOfItems, preferences: null, languages });
  const render = (plan: ReaderMailPlan): Promise<EditionMail> => {
    const key = planKey(plan);
    let mail = variants.get(key);
    if (!mail) {
      mail = renderVariant(plan);
      variants.set(key, mail);
    }
    return mail;
  };
  const renderVariant = (plan: ReaderMailPlan): Promise<EditionMail> => {
    const { edition, pageUrl } = editions.get(plan.language) ?? written;
    return prepareEditionMail(
      { ...edition, items: plan.full.map((index) => edition.items[index]!) },
      {
        ...mailOptions,
        preferencesLink: true,
        variant: {
          language: plan.language,
          pageUrl,
          alsoInEdition: plan.also.map((index) => ({
            title: edition.items[index]!.title,
            url: `${pageUrl}#${anchors[index] ?? `item-${index + 1}`}`,
          })),
          ...(plan.nothingMatched ? { note: uiText(plan.language).noItemsOnTopics } : {}),
          ...(subjectPrefix ? { subjectPrefix } : {}),
        },
      },
    );
  };
  const first = await render(plain);
  const composed = new Set<string>();
  return {
    edition: original.date,
    envelopeFrom: first.envelopeFrom,
    async compose(recipient) {
      const plan = planReaderMail({
        edition: original,
        topicsOfItems,
        preferences: recipient.preferences,
        languages,
      });
      composed.add(planKey(plan));
      const mail = await render(plan);
      return mail.build(recipient);
    },
    variants: () => composed.size,
  };
}
