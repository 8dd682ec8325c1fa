// What the subscribe routes need to know before any request: where the site lives (links in mails, the one Origin a
// POST may carry) and the limits. Light on purpose: `digest serve` reads it at start, the use cases load later.
import { type AnalyticsMode, analyticsMode, siteClicksCounted } from '../config/analytics-schema.js';
import type { Config } from '../config/config-schema.js';
import { type SenderIdentity, senderIdentity } from '../publish/sender-identity.js';

export interface SubscriptionSettings {
  /** The public base URL, ending in "/": links in mails and the root of the subscriber pages. */
  baseUrl: string;
  /** Its origin: the only Origin a subscribe POST may carry. */
  origin: string;
  siteName: string;
  /** Subscribe requests per client address per minute. */
  perMinute: number;
  /** False without publish.email.smtp: no confirmation mail can go out, so subscribing answers 503. */
  canMail: boolean;
  /** Counted links (analytics mode): what the subscribe form and the preferences page tell readers about clicks. */
  clicks: AnalyticsMode;
  /** analytics.site: the pages' links are counted too, and the form and pages say so. */
  clicksOnSite: boolean;
  /** Who sends it (publish.identity): the postal address and footer on the subscriber pages too. */
  sender: SenderIdentity;
}

/** null when neither server.baseUrl nor publish.baseUrl is set: no link could be mailed, no Origin checked. */
export function subscriptionSettings(config: Config): SubscriptionSettings | null {
  const configured = config.server.baseUrl ?? config.publish.baseUrl;
  if (!configured) return null;
  const base = new URL(configured);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  base.search = '';
  base.hash = '';
  return {
    baseUrl: base.href,
    origin: base.origin,
    siteName: config.name,
    perMinute: config.server.subscribePerMinute,
    canMail: config.publish.email.smtp !== undefined,
    clicks: analyticsMode(config),
    clicksOnSite: siteClicksCounted(config),
    sender: senderIdentity(config.publish.identity),
  };
}

export {
  renderSubscriberPage,
  type SubscriberPage,
} from '../publish/subscriber-pages.js';
