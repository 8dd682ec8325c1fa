// Subscriber rules without a database: addresses, tokens, the unsubscribe headers, rate limits.

export { readSecret } from '../config/secret.js';
export {
  isHeaderSafe,
  normaliseAddress,
} from './address.js';
export { listUnsubscribeHeaders, unsubscribeUrl } from './list-unsubscribe.js';
export { createRateLimiter } from './rate-limiter.js';
export {
  createSubscriberTokens,
  type TokenSubject,
} from './tokens.js';
