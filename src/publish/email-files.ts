// The email of one edition as files: email.html, email.txt and the complete edition.eml, in the edition's folder.
import type { EmailConfig } from '../config/publish-schema.js';
import type { FileSystem } from '../core/ports.js';
import type { Edition } from '../core/types.js';
import { absoluteUrl } from '../core/urls.js';
import { type CountedLink, renderEmailHtml } from './email-html.js';
import { renderEditionEml } from './email-message.js';
import { renderEmailText } from './email-text.js';
import type { ImageMap } from './item-images.js';
import type { SenderIdentity } from './sender-identity.js';
import { assertEditionDate, type SiteFiles, writeFiles } from './write-site.js';

export interface EmailFilesOptions {
  email: Pick<EmailConfig, 'from' | 'to' | 'unsubscribeUrl'>;
  baseUrl?: string;
  /** Item images published with the site: shown from absolute URLs under baseUrl (no base URL: no images). */
  images?: ImageMap;
  /** The mail's language (a translated edition): `lang` and the words around the content. */
  language?: string;
  /** Counted links (analytics): each item's link through the service's /r/ redirect, by item key. */
  countedLink?: CountedLink | undefined;
  /** Who sends it (publish.identity): footer, postal address, accent colour, logo. */
  sender?: SenderIdentity | undefined;
}

export interface RenderedEmail {
  html: string;
  text: string;
  eml: string;
}

export async function renderEmail(edition: Edition, options: EmailFilesOptions): Promise<RenderedEmail> {
  const pageUrl = absoluteUrl(options.baseUrl, `${edition.date}/`);
  const emailOptions = {
    pageUrl,
    unsubscribeUrl: options.email.unsubscribeUrl,
    siteUrl: options.baseUrl ?? null,
    ...(options.images ? { images: options.images } : {}),
    ...(options.language ? { language: options.language } : {}),
    ...(options.sender ? { sender: options.sender } : {}),
  };
  const html = await renderEmailHtml(edition, emailOptions, options.countedLink);
  const text = renderEmailText(edition, emailOptions, options.countedLink);
  const host = pageUrl ? new URL(pageUrl).hostname : undefined;
  const eml = await renderEditionEml(edition, {
    from: options.email.from,
    // The composed file needs a To; mailing tools replace it, and --send uses the configured list as the envelope.
    to: options.email.to.join(', ') || 'subscribers@example.com',
    html,
    text,
    unsubscribeUrl: options.email.unsubscribeUrl,
    ...(host ? { messageIdDomain: host } : {}),
  });
  return { html, text, eml };
}

export const EMAIL_FILES = { html: 'email.html', text: 'email.txt', eml: 'edition.eml' } as const;

export function emailFiles(edition: Edition, email: RenderedEmail): SiteFiles {
  assertEditionDate(edition.date);
  return new Map([
    [`${edition.date}/${EMAIL_FILES.html}`, email.html],
    [`${edition.date}/${EMAIL_FILES.text}`, email.text],
    [`${edition.date}/${EMAIL_FILES.eml}`, email.eml],
  ]);
}

export async function writeEmailFiles({
  fs,
  outDir,
  edition,
  options,
}: {
  fs: FileSystem;
  outDir: string;
  edition: Edition;
  options: EmailFilesOptions;
}): Promise<{ files: string[]; email: RenderedEmail }> {
  const email = await renderEmail(edition, options);
  return { files: await writeFiles(fs, outDir, emailFiles(edition, email)), email };
}
