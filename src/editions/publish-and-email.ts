// Publishing use cases: the site (with feeds, email files and Markdown) and the email of one edition.

import { resolve } from 'node:path';
import { type ChatStep, chatAfterPublish } from '../channels/index.js';
import { analyticsMode, siteClicksCounted } from '../config/analytics-schema.js';
import { resolveBaseUrl } from '../config/inputs.js';
import { refuseFlagged } from '../core/edition-flags.js';
import { minItemsFor, refuseThin } from '../core/edition-thin.js';
import { envelopeSender } from '../core/email-address.js';
import { ConfigError, PublishError } from '../core/errors.js';
import type { Edition } from '../core/types.js';
import { mailTransportSettings } from '../mail/settings.js';
import { createSmtpSender, type MailSender } from '../mail/smtp-sender.js';
import { EMAIL_FILES, type RenderedEmail, writeEmailFiles } from '../publish/email-files.js';
import { fetchItemImages } from '../publish/item-images.js';
import { refusePublishedSite } from '../publish/live-site.js';
import { loadEdition } from '../publish/load-edition.js';
import { senderIdentity } from '../publish/sender-identity.js';
import type { SiteCountedLink } from '../publish/types.js';
import { countedItemLink } from '../subscribers/index.js';
import type { EmailDeps, PublishDeps } from './ports.js';
import { type PublishEditionInput, type PublishEditionResult, publishEdition } from './publish-edition.js';

export interface PublishInput {
  week: string;
  outDir: string;
  baseUrl?: string;
  /** Post to the configured chat channels afterwards (default true; nothing happens without channels). */
  chat?: boolean;
  /** Publish even with fallbacks or flagged items (otherwise FlaggedEditionError). */
  allowFlagged?: boolean;
  /** Publish even with fewer items than selection.minItems (otherwise ThinEditionError). */
  allowThin?: boolean;
}

export interface PublishOutcome extends PublishEditionResult {
  pagePath: string;
  outDir: string;
  /** The chat step, when channels are configured: its failures never undo the publish. */
  chat: ChatStep | null;
  /** Published, but something after it (a chat channel) failed: exit 3 tells a scheduler. */
  needsALook: boolean;
}

export async function publish(deps: PublishDeps, input: PublishInput): Promise<PublishOutcome> {
  const { config } = deps;
  const baseUrl = resolveBaseUrl(input.baseUrl, config.publish.baseUrl);
  // A first publication needs a clean edition (or --allow-flagged); rewriting a published one does not.
  const draft = await deps.store.editions.get(input.week);
  if (draft && !draft.publishedAt) {
    refuseFlagged(draft, 'publish', input.allowFlagged ?? false);
    refuseThin(draft, 'publish', {
      minItems: minItemsFor(config.selection.minItems, config.itemsPerEdition),
      allowThin: input.allowThin ?? false,
    });
  }
  const result = await publishEdition({
    ...publishedSiteInput(deps, baseUrl),
    outDir: input.outDir,
    date: input.week,
    now: deps.clock.now(),
  });
  // Instances that each write the site into their own folder write it again from the store (compose/site-sync.ts).
  await deps.store.siteGenerations.add(input.week);
  const untranslated = config.languages.filter((language) => !result.languages.includes(language));
  if (untranslated.length) {
    deps.log.info(
      `Languages: published in ${result.languages.join(', ')}; no translation of this edition into ${untranslated.join(', ')} ` +
        '(build with a model to translate it).',
    );
  }
  deps.log.info(
    `${result.newlyPublished ? 'Published' : 'Already published; rewrote'} "${result.edition.title}" ` +
      `(${result.edition.publishedAt}) — site of ${result.editions} edition(s), ${result.files.length} files in ${input.outDir}`,
  );
  const chat =
    input.chat !== false && config.chat.length > 0
      ? await chatAfterPublish(deps, { week: input.week, baseUrl })
      : null;
  return {
    ...result,
    outDir: input.outDir,
    pagePath: resolve(input.outDir, input.week, 'index.html'),
    chat,
    needsALook: (chat?.failed ?? 0) > 0,
  };
}

export interface EmailInput {
  week: string;
  outDir: string;
  baseUrl?: string;
  /** Send edition.eml through publish.email.smtp to these recipients (default publish.email.to). */
  send: boolean;
  to?: string[];
}

export interface EmailOutcome {
  emlPath: string;
  email: RenderedEmail;
  sent: { accepted: number; recipients: number } | null;
}

export async function email(deps: EmailDeps, input: EmailInput): Promise<EmailOutcome> {
  const { config, log } = deps;
  const smtp = config.publish.email.smtp;
  if (input.send && !smtp) {
    throw new ConfigError('--send needs publish.email.smtp in the config (host, port, user).', [
      { path: 'publish.email.smtp', message: 'required for --send' },
    ]);
  }
  await refusePublishedSite(input.outDir, 'digest email writes its files elsewhere');
  const edition = await loadEdition(deps.store, input.week);
  const baseUrl = input.baseUrl ?? config.publish.baseUrl;
  // Images only with a site to point at (mail clients load them from there) and enrichment on, as for the site.
  const images =
    baseUrl && config.enrich.enabled
      ? (await fetchItemImages([edition], { http: deps.http, log: deps.log })).images
      : undefined;
  const { files, email } = await writeEmailFiles({
    fs: deps.fs,
    outDir: input.outDir,
    edition,
    options: {
      email: config.publish.email,
      sender: senderIdentity(config.publish.identity),
      ...(baseUrl ? { baseUrl } : {}),
      ...(images ? { images } : {}),
      countedLink: mailCountedLink(deps, edition, baseUrl),
    },
  });
  log.info(
    `Wrote ${files.length} files (${(Buffer.byteLength(email.html) / 1024).toFixed(1)} KB HTML) to ${resolve(input.outDir, input.week)}`,
  );
  let sent: EmailOutcome['sent'] = null;
  if (input.send && smtp) {
    const to = input.to ?? config.publish.email.to;
    const from = envelopeSender(config.publish.email.from);
    // The one SMTP module and its one set of settings (DKIM included), as `digest send` and the outbox use.
    const sender = createSmtpSender({ ...mailTransportSettings(config, deps.env)!, connections: 1 });
    const result = await sendEditionEml(sender, email.eml, { from, to }).finally(() => sender.close());
    sent = { accepted: result.accepted, recipients: to.length };
    log.info(`Sent to ${result.accepted} of ${to.length} recipient(s) via ${smtp.host}:${smtp.port}`);
  }
  return { emlPath: resolve(input.outDir, input.week, EMAIL_FILES.eml), email, sent };
}

/** Everything a publish of the site takes from the config, the same for the publish and for every copy of it. */
export function publishedSiteInput(
  deps: PublishDeps,
  baseUrl: string,
): Omit<PublishEditionInput, 'outDir' | 'date' | 'now'> {
  const { config } = deps;
  return {
    store: deps.store,
    fs: deps.fs,
    site: {
      baseUrl,
      siteName: config.name,
      feedLimit: config.publish.feedLimit,
      ...(config.server.subscribeForm !== undefined
        ? // Written in at publish time, the form says how clicks are counted, as the one `digest serve` fills in.
          {
            subscribeForm: config.server.subscribeForm && {
              clicks: analyticsMode(config),
              clicksOnSite: siteClicksCounted(config),
            },
          }
        : {}),
      languages: config.languages,
      countedLink: siteCountedLink(deps, baseUrl),
    },
    email: config.publish.email,
    sender: senderIdentity(config.publish.identity),
    // Item images are fetched (once, guarded) with the rest of the network enrichment; off: no images.
    ...(config.enrich.enabled ? { fetchImages: { http: deps.http, log: deps.log } } : {}),
  };
}

/**
 * Counted links on the site (analytics.site, mode not "off"): the items of each edition page, live or an earlier
 * revision's (`<date>-r<n>/`), through /r/ on the service (server.baseUrl, else the site's), channel "site", no
 * reader part; the token names the revision the page shows. One signer per revision. The front page links no items;
 * the feeds keep the items' own links (docs/analytics.md says why).
 */
function siteCountedLink(deps: PublishDeps, siteUrl: string): SiteCountedLink | undefined {
  const { config } = deps;
  if (!siteClicksCounted(config)) return undefined;
  const baseUrl = config.server.baseUrl ?? siteUrl;
  const byRevision = new Map<string, (itemKey: string) => string>();
  return (edition, itemKey) => {
    const revision = `${edition.date}-r${(edition.corrections?.length ?? 0) + 1}`;
    let link = byRevision.get(revision);
    if (!link) {
      link = countedItemLink(deps, { edition, baseUrl, channel: 'site' });
      byRevision.set(revision, link);
    }
    return link(itemKey);
  };
}

/**
 * Counted links (analytics not "off") in the list address's mail: each item through /r/ on the service (server.baseUrl,
 * else the site's), channel "mail", no reader part. No address to count at: the items' own links.
 */
function mailCountedLink(
  deps: EmailDeps,
  edition: Edition,
  siteUrl: string | undefined,
): ((itemKey: string) => string) | undefined {
  const service = deps.config.server.baseUrl ?? siteUrl;
  if (!service || analyticsMode(deps.config) === 'off') return undefined;
  return countedItemLink(deps, { edition, baseUrl: service, channel: 'mail' });
}

/** Sends exactly the bytes of edition.eml to the given recipients, in one SMTP transaction. */
export async function sendEditionEml(
  sender: MailSender,
  eml: string,
  envelope: { from: string; to: string[] },
): Promise<{ accepted: number }> {
  if (!envelope.to.length) throw new PublishError('No recipients: set publish.email.to or pass --to.');
  try {
    const { rejected } = await sender.send({ envelope, raw: eml, messageId: '' });
    return { accepted: envelope.to.length - rejected.length };
  } catch (error) {
    throw new PublishError(
      `Sending the email failed: ${(error as Error).message}. Check the SMTP settings.`,
      { cause: error },
    );
  }
}
