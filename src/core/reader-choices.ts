// A reader's choices as a form or JSON sends them, checked against what this site offers: a configured language, topics
// of the ranking's list, levels. Pure: the routes parse, the use cases store.
import { LEVELS, type Level, type ReaderPreferences } from './types.js';

export interface PreferenceChoices {
  /** Configured languages; the first is the one editions are written in. */
  languages: readonly string[];
  /** Topic names readers may choose. */
  topics: readonly string[];
}

export type PreferencesCheck =
  | { ok: true; preferences: ReaderPreferences }
  | { ok: false; field: 'language' | 'topics' | 'levels' | 'onlyMyTopics'; message: string };

export const NO_PREFERENCES: ReaderPreferences = {
  language: null,
  topics: [],
  levels: [],
  onlyMyTopics: false,
};

const MAX_VALUES = 64;

/** A form field sent once, many times (an array) or not at all, as a list of strings. */
function list(value: unknown): string[] | null {
  if (value === undefined || value === null || value === '') return [];
  const values = Array.isArray(value) ? value : [value];
  if (values.length > MAX_VALUES || !values.every((entry) => typeof entry === 'string')) return null;
  return [
    ...new Set((values as string[]).flatMap((entry) => entry.split(',')).map((entry) => entry.trim())),
  ].filter(Boolean);
}

function flag(value: unknown): boolean | null {
  if (value === undefined || value === null || value === '' || value === false) return false;
  if (value === true || value === 'on' || value === '1' || value === 'true' || value === 'yes') return true;
  if (value === '0' || value === 'false' || value === 'no') return false;
  return null;
}

/**
 * Reads `language`, `topics` (a form's repeated `topics[]`), `levels` (a form's `levels[]`) and `onlyMyTopics` (or `only`).
 * The first configured language is stored as null: the edition's own language, whatever it is configured to later.
 */
export function parsePreferences(
  fields: Record<string, unknown>,
  choices: PreferenceChoices,
): PreferencesCheck {
  const language = typeof fields.language === 'string' ? fields.language.trim() : '';
  if (fields.language !== undefined && typeof fields.language !== 'string' && fields.language !== null) {
    return { ok: false, field: 'language', message: 'must be a language tag' };
  }
  if (language && !choices.languages.some((tag) => tag.toLowerCase() === language.toLowerCase())) {
    return { ok: false, field: 'language', message: `must be one of ${choices.languages.join(', ')}` };
  }
  const topics = list(fields.topics ?? fields['topics[]'] ?? fields.topic);
  if (!topics) return { ok: false, field: 'topics', message: 'must be a list of topic names' };
  const unknown = topics.find((topic) => !choices.topics.includes(topic));
  if (unknown !== undefined) {
    return { ok: false, field: 'topics', message: `unknown topic "${unknown.slice(0, 40)}"` };
  }
  const levels = list(fields.levels ?? fields['levels[]'] ?? fields.level);
  if (!levels?.every((level) => (LEVELS as readonly string[]).includes(level))) {
    return { ok: false, field: 'levels', message: `must be among ${LEVELS.join(', ')}` };
  }
  const only = flag(fields.onlyMyTopics ?? fields.only);
  if (only === null) return { ok: false, field: 'onlyMyTopics', message: 'must be true or false' };
  const tag = choices.languages.find((entry) => entry.toLowerCase() === language.toLowerCase());
  return {
    ok: true,
    preferences: {
      language: tag && tag !== choices.languages[0] ? tag : null,
      topics,
      // Every level chosen is the same as none chosen.
      levels: levels.length === LEVELS.length ? [] : LEVELS.filter((level) => levels.includes(level)),
      onlyMyTopics: only,
    },
  };
}

/** True when a form carried any preference field (a subscribe form without them stores nothing). */
export function hasPreferenceFields(fields: Record<string, unknown>): boolean {
  return [
    'language',
    'topics',
    'topics[]',
    'topic',
    'levels',
    'levels[]',
    'level',
    'onlyMyTopics',
    'only',
  ].some((name) => fields[name] !== undefined && fields[name] !== '');
}

/** The levels a reader gets: their choice, or all. */
export function wantedLevels(preferences: ReaderPreferences): readonly Level[] {
  return preferences.levels.length ? preferences.levels : LEVELS;
}

/** The reader's "your edition" page for a signed 'preferences' token. */
export function preferencesUrl(baseUrl: string, token: string): string {
  const url = new URL('preferences', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  url.searchParams.set('token', token);
  return url.href;
}
