// `digest serve`: the HTTP app and what it is built from.
export { createServerApp, type ServerDeps, type ServerEnv } from './app.js';
export { clientAddress } from './client-address.js';
export { allowedOrigins, bodyLimit, originCheck, rateLimit } from './guards.js';
export { batchedLogLines, type LogLines } from './log-lines.js';
export {
  createDigestMetrics,
  createMetricsRegistry,
  type DigestMetrics,
  type MetricsRegistry,
  PROMETHEUS_CONTENT_TYPE,
} from './metrics.js';
export { DEFAULT_CONTENT_SECURITY_POLICY, securityHeaders } from './security-headers.js';
export { createSiteFiles, type SiteFiles, type SiteFilesOptions } from './site-files.js';
export { type RunningServer, startServer } from './start-server.js';
