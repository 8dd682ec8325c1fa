// Subscriber rules without a database: addresses, tokens, the unsubscribe headers, rate limits.

export { MIN_SECRET_BYTES, readSecret } from '../config/secret.js';
export {
  ADDRESS_PROBLEMS,
  type AddressCheck,
  type AddressProblem,
  isHeaderSafe,
  type NormalisedAddress,
  normaliseAddress,
} from './address.js';
export { type ListUnsubscribeInput, listUnsubscribeHeaders, unsubscribeUrl } from './list-unsubscribe.js';
export {
  createRateLimiter,
  type RateDecision,
  type RateLimiter,
  type RateLimiterOptions,
} from './rate-limiter.js';
export {
  createSubscriberTokens,
  type SubscriberTokens,
  TOKEN_LIFETIME_MS,
  type TokenCheck,
  type TokenPurpose,
  type TokenSubject,
} from './tokens.js';
