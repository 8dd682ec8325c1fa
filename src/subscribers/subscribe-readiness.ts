// Whether `digest serve` can take subscriptions, and what it tells the operator at start when it cannot: one block
// naming what is missing and the config to add. Served pages carry the form only when a reader's request can work.
import { analyticsMode, siteClicksCounted } from '../config/analytics-schema.js';
import type { Config } from '../config/config-schema.js';
import { fillSubscribeSlot } from '../publish/subscribe-slot.js';
import { subscriptionSettings } from './subscription-settings.js';

export interface SubscribeReadiness {
  /** Fills the subscribe slot of each served page, or null: the pages show no form. */
  transformHtml: ((page: string) => string) | null;
  /** The start-up block when subscribing is off and the form is not hidden on purpose; null otherwise. */
  missing(serverUrl: string): string | null;
}

/** A local mail catcher (Mailpit, MailHog, `python -m smtpd`…) on its usual port, for trying it out. */
export const MAIL_CATCHER_SMTP = { host: '127.0.0.1', port: 1025, requireTls: false } as const;

export function subscribeReadiness(config: Config, configFile: string | null): SubscribeReadiness {
  const settings = subscriptionSettings(config);
  const works = settings?.canMail === true;
  const hidden = config.server.subscribeForm === false;
  const form = {
    languages: config.languages,
    clicks: analyticsMode(config),
    clicksOnSite: siteClicksCounted(config),
  };
  return {
    transformHtml: works && !hidden ? (page) => fillSubscribeSlot(page, config.name, form) : null,
    missing: (serverUrl) =>
      works || hidden ? null : missingBlock(config, settings === null, { serverUrl, configFile }),
  };
}

function missingBlock(
  config: Config,
  noBaseUrl: boolean,
  context: { serverUrl: string; configFile: string | null },
): string {
  const noSmtp = config.publish.email.smtp === undefined;
  const lines = [
    `subscribing is off: the pages carry no subscribe form, and POST /subscribe answers ${noBaseUrl ? 405 : 503}.`,
  ];
  if (noBaseUrl)
    lines.push(
      '  missing: publish.baseUrl (or server.baseUrl), the address readers reach this site at (links in mails)',
    );
  if (noSmtp) lines.push('  missing: publish.email.smtp, the SMTP server confirmation mails go out through');
  const email = noSmtp ? { from: config.publish.email.from, smtp: MAIL_CATCHER_SMTP } : undefined;
  const addition = {
    publish: { ...(noBaseUrl ? { baseUrl: context.serverUrl } : {}), ...(email ? { email } : {}) },
  };
  lines.push(
    `  add to ${context.configFile ?? 'digest.config.json (a new file in this folder)'}:`,
    `    ${JSON.stringify(addition)}`,
  );
  if (noSmtp)
    lines.push(
      '  that SMTP server is a local mail catcher, for trying it (e.g. Mailpit: its inbox at http://127.0.0.1:8025);',
      '  in production use your provider\'s: { "host": "smtp.example.com", "port": 587, "user": "…" } with the',
      '  password in DIGEST_SMTP_PASSWORD.',
    );
  lines.push('  `digest init` writes both; server.subscribeForm: false hides the form and this message.');
  return lines.join('\n');
}
