// `digest serve`: the HTTP app and what it is built from.
export {
  createServerApp,
  type ServerApp,
  type ServerUseCases,
} from './app.js';
export { allowedOrigins, bodyLimit, originCheck, rateLimit } from './guards.js';
export { batchedLogLines } from './log-lines.js';
export {
  createDigestMetrics,
  type DigestMetrics,
} from './metrics.js';
export { createOperatorApp } from './operator-access.js';
export { createSiteFiles } from './site-file-cache.js';
export { type RunningServer, startServer } from './start-server.js';
export type { SubscriberUseCases } from './subscriber-routes.js';
