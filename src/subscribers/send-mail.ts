// The mail of `digest send`: the edition in each language readers may get, its images, and each reader's signed
// links. Composed per reader by mail/personal-mail.ts.

import { analyticsMode } from '../config/analytics-schema.js';
import { applyTranslation } from '../core/translation.js';
import type { Edition } from '../core/types.js';
import { absoluteUrl } from '../core/urls.js';
import type { CountedLinks } from '../mail/edition-mail.js';
import { type LanguageEdition, type PersonalMails, preparePersonalMails } from '../mail/personal-mail.js';
import type { SendReaders } from '../mail/send-run.js';
import type { SendSettings } from '../mail/settings.js';
import { senderIdentity } from '../publish/sender-identity.js';
import { countedItemLink, digestClickTokens } from './click-tokens.js';
import type { SendDeps } from './ports.js';
import { digestTokens } from './tokens.js';

export async function prepareSendMail(
  deps: Pick<SendDeps, 'config' | 'clock' | 'http' | 'log' | 'store' | 'env'>,
  edition: Edition,
  settings: SendSettings & { test?: boolean },
): Promise<PersonalMails> {
  const { unsubscribeMailto } = settings.send;
  // A test mail's links go straight to the items: an editor's clicks never count as readers'.
  const countedLinks = settings.test ? null : mailLinks(deps, edition, settings.baseUrl);
  return preparePersonalMails({
    editions: await editionLanguages(deps, edition, settings.baseUrl),
    from: deps.config.publish.email.from,
    sender: senderIdentity(deps.config.publish.identity),
    baseUrl: settings.baseUrl,
    now: () => deps.clock.now(),
    ...(unsubscribeMailto ? { unsubscribeMailto } : {}),
    ...(countedLinks ? { countedLinks } : {}),
    ...(settings.test ? { subjectPrefix: '[Test] ' } : {}),
    ...(await emailImages(deps, edition, settings.baseUrl)),
  });
}

/**
 * Counted links (analytics not "off"): each item's link through /r/ on the service, its token naming the edition,
 * the revision being mailed, the channel and the item.
 */
function mailLinks(
  deps: Pick<SendDeps, 'config' | 'env'>,
  edition: Edition,
  baseUrl: string,
): CountedLinks | null {
  const mode = analyticsMode(deps.config);
  if (mode === 'off') return null;
  return {
    perReader: mode === 'per-reader',
    itemUrl: countedItemLink(deps, { edition, baseUrl, channel: 'mail' }),
  };
}

/**
 * Each reader's links, signed as their mail is composed; a permanent failure counts toward their bounces. In
 * per-reader mode each reader's /r/ links carry their signed part (a reader who turned counting off is kept out
 * when the counts are written: store/clicks.ts).
 */
export function sendReaders(
  deps: Pick<SendDeps, 'env' | 'clock' | 'store' | 'config'>,
  bounceLimit: number,
  edition: string,
): SendReaders {
  const tokens = digestTokens(deps);
  const clickTokens = analyticsMode(deps.config) === 'per-reader' ? digestClickTokens(deps) : null;
  return {
    tokensFor: ({ subscriberId, address, generation }) => ({
      ...(clickTokens ? { clicks: clickTokens.reader(edition, subscriberId) } : {}),
      unsubscribe: tokens.issue('unsubscribe', { id: String(subscriberId), address }),
      // Bound to the reader's subscription: after leaving and coming back, this mail's link no longer opens the page.
      preferences: tokens.issue('preferences', {
        id: String(subscriberId),
        address,
        instance: String(generation),
      }),
    }),
    recordBounce: async (id) =>
      (await deps.store.subscribers.recordBounce(id, bounceLimit))?.status === 'bounced',
  };
}

/**
 * The edition in each configured language it has a translation for, the written one first. A language without one
 * is left out: its readers get the written language.
 */
async function editionLanguages(
  deps: Pick<SendDeps, 'config' | 'store'>,
  edition: Edition,
  baseUrl: string,
): Promise<Map<string, LanguageEdition>> {
  const [written, ...others] = deps.config.languages;
  const editions = new Map<string, LanguageEdition>([
    [written ?? 'en', { edition, pageUrl: absoluteUrl(baseUrl, `${edition.date}/`) ?? baseUrl }],
  ]);
  if (others.length === 0) return editions;
  for (const { translation } of await deps.store.translations.list(edition.date)) {
    if (!others.includes(translation.language)) continue;
    editions.set(translation.language, {
      edition: applyTranslation(edition, translation),
      pageUrl: absoluteUrl(baseUrl, `${translation.language}/${edition.date}/`) ?? baseUrl,
    });
  }
  return editions;
}

/** As `digest email`: images from the published site when enrichment is on, else none. */
async function emailImages(
  deps: Pick<SendDeps, 'config' | 'http' | 'log'>,
  edition: Edition,
  baseUrl: string,
) {
  if (!deps.config.enrich.enabled) return {};
  const { fetchItemImages } = await import('../publish/item-images.js');
  const { images } = await fetchItemImages([edition], { http: deps.http, log: deps.log });
  return baseUrl ? { images } : {};
}
