// A reader's own edition: the preferences page behind the signed link of every mail (no account: the token is the
// key), what the subscribe form may carry, and the reader's data for export. The choices offered are the configured
// languages, the ranking's topics and the levels.
import { analyticsMode } from '../config/analytics-schema.js';
import { NotFoundError } from '../core/errors.js';
import { NO_PREFERENCES, type PreferencesCheck, parsePreferences } from '../core/reader-choices.js';
import { LEVELS, type Level, type ReaderPreferences } from '../core/types.js';
import type { DigestDeps } from '../deps.js';
import { TOPIC_CHOICES, TOPIC_NAMES, type TopicChoice } from '../select/topic-match.js';
import type { SubscriberExport } from '../store/preferences.js';
import { operatorAddress } from './manage.js';
import type { PreferencesDeps, ReadersDeps } from './ports.js';
import { digestTokens } from './tokens.js';

export interface PreferenceOptions {
  /** Configured languages, first = the language editions are written in. */
  languages: readonly string[];
  topics: readonly TopicChoice[];
  levels: readonly Level[];
}

export function preferenceOptions(config: DigestDeps['config']): PreferenceOptions {
  return { languages: config.languages, topics: TOPIC_CHOICES, levels: LEVELS };
}

export type PreferencesInfo =
  | {
      ok: true;
      address: string;
      preferences: ReaderPreferences;
      options: PreferenceOptions;
      /** The reader's switch for counted clicks in per-reader mode; null in other modes (nothing to switch). */
      countMyClicks: boolean | null;
    }
  | { ok: false; reason: string };

export type PreferencesSaved =
  | { ok: true; preferences: ReaderPreferences; countMyClicks: boolean | null }
  | { ok: false; reason: string }
  | Extract<PreferencesCheck, { ok: false }>
  | { ok: false; field: 'countMyClicks'; message: string };

export interface ReaderPreferencesUseCases {
  show(token: string): Promise<PreferencesInfo>;
  save(token: string, fields: Record<string, unknown>): Promise<PreferencesSaved>;
}

const MAX_TOKEN_LENGTH = 300;

export function createReaderPreferences(deps: PreferencesDeps): ReaderPreferencesUseCases {
  const tokens = digestTokens(deps);
  const options = preferenceOptions(deps.config);
  const perReader = analyticsMode(deps.config) === 'per-reader';
  const counting = async (rowId: number) => (perReader ? deps.store.clicks.readerCounting(rowId) : null);
  const lookup = async (id: string) => {
    const row = await deps.store.subscribers.get({ id: Number(id) });
    // Someone who left keeps no page: their link says "not valid" like any other. A link names the subscription
    // it was mailed in: after leaving and coming back, only the new mails' links open the page.
    return row && (row.status === 'pending' || row.status === 'confirmed')
      ? { ...row, id: String(row.id), rowId: row.id, instance: String(row.generation) }
      : null;
  };
  const verify = async (token: string) =>
    typeof token === 'string' && token.length <= MAX_TOKEN_LENGTH
      ? tokens.verify(token, 'preferences', lookup)
      : ({ ok: false, reason: 'malformed' } as const);
  return {
    async show(token) {
      const checked = await verify(token);
      if (!checked.ok) return checked;
      const preferences = (await deps.store.preferences.get(checked.subscriber.rowId)) ?? NO_PREFERENCES;
      const countMyClicks = await counting(checked.subscriber.rowId);
      return { ok: true, address: checked.subscriber.address, preferences, options, countMyClicks };
    },
    async save(token, fields) {
      const checked = await verify(token);
      if (!checked.ok) return checked;
      const parsed = parsePreferences(fields, { languages: options.languages, topics: TOPIC_NAMES });
      if (!parsed.ok) return parsed;
      const switched = perReader ? clickSwitch(fields) : undefined;
      if (switched === null) return { ok: false, field: 'countMyClicks', message: 'must be true or false' };
      const { rowId } = checked.subscriber;
      if (!(await deps.store.preferences.set(rowId, parsed.preferences)))
        return { ok: false, reason: 'gone' };
      // Turned off, the reader's kept clicks are deleted and later ones are not kept (store.clicks).
      if (switched !== undefined) await deps.store.clicks.setReaderCounting(rowId, switched);
      deps.log.info(`subscriber ${rowId} chose their edition`);
      return { ok: true, preferences: parsed.preferences, countMyClicks: await counting(rowId) };
    },
  };
}

/**
 * The reader's "Count my clicks" switch from a submission: `countMyClicks` when sent (true/false, "1"/"0", "on"); an
 * unticked box sends nothing, so a form that offered it (`clicksOffered`) means off; neither: unchanged (undefined).
 * null: not a yes or no.
 */
function clickSwitch(fields: Record<string, unknown>): boolean | null | undefined {
  const value = fields.countMyClicks;
  if (value === undefined) return fields.clicksOffered !== undefined ? false : undefined;
  if (value === true || value === 'on' || value === '1' || value === 'true') return true;
  if (value === false || value === '0' || value === 'false') return false;
  return null;
}

/** `digest subscribers export <email>`: everything stored about one reader. */
export async function exportReader(deps: ReadersDeps, input: { email: string }): Promise<SubscriberExport> {
  const { address } = operatorAddress(input.email);
  const data = await deps.store.preferences.exportSubscriber(address);
  if (!data) throw new NotFoundError(`No subscriber ${JSON.stringify(address)}: nothing to export.`);
  return data;
}
