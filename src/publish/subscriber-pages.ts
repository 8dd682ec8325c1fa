// The pages `digest serve` answers the subscribe, confirm and unsubscribe requests with: the site's own shell, no
// script, and never a word about whether an address is known.

import type { AnalyticsMode } from '../config/analytics-schema.js';
import type { ReaderPreferences } from '../core/types.js';
import { clickNote, renderPage, subscribeForm } from './_layout.js';
import { preferenceFields } from './preference-fields.js';
import { type SenderOptions, senderHtml } from './sender-identity.js';
import { type Fragment, html } from './template.js';
import { DEFAULT_SITE_NAME } from './types.js';

export type SubscriberPage =
  | { kind: 'check-inbox' }
  | { kind: 'invalid-address'; message: string }
  | { kind: 'confirm'; token: string; address: string }
  | { kind: 'confirmed' }
  | { kind: 'unsubscribe'; token: string; address: string }
  | { kind: 'unsubscribed' }
  | { kind: 'invalid-link' }
  | { kind: 'too-many-requests' }
  | {
      kind: 'preferences';
      token: string;
      address: string;
      preferences: ReaderPreferences;
      languages: readonly string[];
      /** The reader's own switch for counted clicks (per-reader mode): on unless they turned it off. */
      countMyClicks?: boolean;
      /** The last submission was refused: which field and why. */
      problem?: string;
      saved?: boolean;
    };

export interface SubscriberPageOptions extends SenderOptions {
  siteName?: string;
  /** The site's root as an absolute URL, or "/" (links and the form's action resolve from it). */
  root: string;
  /** Counted links (analytics mode): what the pages say about clicks, and the preferences page's switch. */
  clicks?: AnalyticsMode | undefined;
  /** analytics.site: the pages' links are counted too. */
  clicksOnSite?: boolean | undefined;
}

const TITLES: Record<SubscriberPage['kind'], string> = {
  'check-inbox': 'Check your inbox',
  'invalid-address': 'That address does not look right',
  confirm: 'Confirm your subscription',
  confirmed: 'You are subscribed',
  unsubscribe: 'Unsubscribe?',
  unsubscribed: 'You are unsubscribed',
  'invalid-link': 'This link does not work',
  'too-many-requests': 'Too many requests',
  preferences: 'Your edition',
};

export function renderSubscriberPage(page: SubscriberPage, options: SubscriberPageOptions): string {
  const siteName = options.siteName ?? DEFAULT_SITE_NAME;
  const { root } = options;
  const title = TITLES[page.kind];
  return renderPage({
    title,
    titleSuffix: siteName,
    description: `${title} — ${siteName}`,
    site: { name: siteName, root, look: options.sender },
    body: html`<h1>${title}</h1>
${body(page, siteName, options)}
${senderHtml(options.sender, null)}`,
  });
}

function body(page: SubscriberPage, siteName: string, options: SubscriberPageOptions): Fragment {
  const { root, clicks, clicksOnSite } = options;
  const home = html`<p><a href="${root}index.html">Back to ${siteName}</a></p>`;
  switch (page.kind) {
    case 'check-inbox':
      // Said the same way for a new, a pending and a confirmed address: this page tells nobody who subscribes.
      return html`<p>If the address can receive mail, a message with a confirmation link is on its way. \
Open it to start getting ${siteName}. Nothing arrived? Look in the spam folder; you can ask again in an hour.</p>
${home}`;
    case 'invalid-address':
      return html`<p role="alert">The email field: ${page.message}.</p>
${subscribeForm(siteName, root, { clicks, clicksOnSite })}`;
    case 'confirm':
      // A GET only shows this button: a mail scanner that opens the link confirms nobody.
      return html`<p>Send ${siteName} to ${maskAddress(page.address)} once a week?</p>
<form method="post" action="${root}confirm">
<input type="hidden" name="token" value="${page.token}">
<button type="submit">Confirm my subscription</button>
</form>
${home}`;
    case 'confirmed':
      return html`<p>Thank you: your address is confirmed. The next edition of ${siteName} comes to your inbox; \
every mail has a link to unsubscribe.</p>
${home}`;
    case 'unsubscribe':
      // A GET only shows this button: a link scanner that opens the URL unsubscribes nobody.
      return html`<p>Stop sending ${siteName} to ${maskAddress(page.address)}?</p>
<form method="post" action="${root}unsubscribe">
<input type="hidden" name="token" value="${page.token}">
<button type="submit">Unsubscribe</button>
</form>
${home}`;
    case 'unsubscribed':
      return html`<p>You will get no more mail from ${siteName}. Changed your mind? Subscribe again on the site.</p>
${home}`;
    case 'invalid-link':
      return html`<p>The link is incomplete, expired or not one of ours, so nothing was changed. \
Links from a recent mail work; to subscribe, ask for a new confirmation mail on the site.</p>
${home}`;
    case 'preferences':
      return preferencesBody(page, options);
    case 'too-many-requests':
      return html`<p>Too many requests came from your network. Please try again in a minute.</p>
${home}`;
  }
}

function preferencesBody(
  page: Extract<SubscriberPage, { kind: 'preferences' }>,
  { root, clicks, clicksOnSite }: SubscriberPageOptions,
): Fragment {
  const status = page.problem
    ? html`<p role="alert">${page.problem}</p>`
    : page.saved
      ? html`<p role="status">Saved: your next mail follows these choices.</p>`
      : null;
  // The signed token is the form's key and its CSRF token: only the reader's mail carries it.
  return html`${status}
<p>Choose what the mail to ${maskAddress(page.address)} puts first: ${page.languages.length > 1 ? 'your language, your topics and levels' : 'your topics and levels'}.</p>
<form class="preferences" method="post" action="${root}preferences">
<input type="hidden" name="token" value="${page.token}">
${preferenceFields({ languages: page.languages, current: page.preferences })}
${clickChoice(clicks, clicksOnSite, page.countMyClicks ?? true)}
<button type="submit">Save</button>
</form>
<p><a href="${root}index.html">Back to the site</a></p>`;
}

/**
 * What the preferences page says about counted clicks: per reader, the statement and the reader's own switch (the
 * hidden field tells the POST the switch was offered, so an unticked box turns counting off); in aggregate mode one
 * sentence; off: nothing.
 */
function clickChoice(
  clicks: AnalyticsMode | undefined,
  onSite: boolean | undefined,
  on: boolean,
): Fragment | null {
  const note = clickNote(clicks, onSite);
  if (!note) return null;
  if (clicks !== 'per-reader') return html`<p class="click-note">${note}</p>`;
  return html`<fieldset><legend>Clicks</legend>
<p class="click-note">${note}</p>
<input type="hidden" name="clicksOffered" value="1">
<p><label><input type="checkbox" name="countMyClicks" value="1"${on ? html` checked` : null}> Count my clicks</label></p>
</fieldset>`;
}

/** "ada@example.com" → "a…@example.com": enough for the reader to recognise, little for someone the mail reached. */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return '…';
  return `${Array.from(address.slice(0, at))[0]}…${address.slice(at)}`;
}
