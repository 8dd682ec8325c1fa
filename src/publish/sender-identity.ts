// Who sends the mail, as every mail and the subscribe page print it: the footer text and the postal address under
// the content, and the accent colour and logo of the mail's head. One view of publish.identity for the edition, the
// personal mails, the confirmation and welcome mails and the correction notices, so none can leave it out.
import type { IdentityConfig } from '../config/identity-schema.js';
import { type Fragment, html, join } from './template.js';

export interface SenderIdentity {
  name: string | null;
  postalAddress: string | null;
  footer: string | null;
  accentColor: string | null;
  logoUrl: string | null;
}

/** The options of whatever renders a mail or page that says who sends it. */
export interface SenderOptions {
  /** Who sends it (publish.identity): footer and postal address, accent colour, logo. */
  sender?: SenderIdentity | undefined;
}

export function senderIdentity(identity: IdentityConfig | undefined): SenderIdentity {
  return {
    name: identity?.name ?? null,
    postalAddress: identity?.postalAddress ?? null,
    footer: identity?.footer ?? null,
    accentColor: identity?.accentColor ?? null,
    logoUrl: identity?.logoUrl ?? null,
  };
}

/** The postal address's lines: as configured, split at line breaks (a one-line address stays one line). */
const addressLines = (postal: string) =>
  postal
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

/** The plain-text part's closing lines: the footer, then the postal address. */
export function senderTextLines(sender: SenderIdentity | undefined): string[] {
  if (!sender) return [];
  return [
    ...(sender.footer ? [sender.footer] : []),
    ...(sender.postalAddress ? addressLines(sender.postalAddress) : []),
  ];
}

/** The HTML part's closing paragraph (inline styles: mail clients drop style sheets), or nothing. */
export function senderHtml(
  sender: SenderIdentity | undefined,
  style: string | null = 'color:#55585e;font-size:13px',
): Fragment | null {
  if (!sender || (!sender.footer && !sender.postalAddress)) return null;
  const address = sender.postalAddress
    ? html`<span class="postal-address">${join(
        addressLines(sender.postalAddress).map((line) => html`${line}`),
        '<br>',
      )}</span>`
    : null;
  // A page of the site carries no inline style (its policy allows none): a class instead.
  const styled = style === null ? html` class="sender"` : html` style="${style}"`;
  return html`<p${styled}>${sender.footer ? html`${sender.footer}${address ? html`<br>` : null}` : null}${address}</p>`;
}

/** The logo above the mail's content (an https URL, checked in the config), with the sender's name as its text. */
export function senderLogo(sender: SenderIdentity | undefined, alt: string): Fragment | null {
  if (!sender?.logoUrl) return null;
  return html`<img src="${sender.logoUrl}" alt="${alt}" height="40" style="height:40px;width:auto;border:0">`;
}

/** A personal mail's HTML (a confirmation, a welcome, a correction notice): the logo, the content, who sends it. */
export function personalMailHtml(
  head: { subject: string; siteName: string; sender: SenderIdentity | undefined },
  content: Fragment,
): string {
  return html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${head.subject}</title></head>
<body style="font-family:system-ui,sans-serif;line-height:1.5;max-width:36rem;margin:0 auto;padding:1rem">
${senderLogo(head.sender, head.siteName)}
${content}${senderHtml(head.sender)}
</body></html>
`.toString();
}
