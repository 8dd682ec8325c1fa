// The site's name, public address and look as every renderer takes them, from the config: one mapping for build
// and publish.
import type { Config } from '../config/config-schema.js';

export function siteOptions(config: Config) {
  return {
    siteName: config.name,
    ...(config.publish.baseUrl ? { baseUrl: config.publish.baseUrl } : {}),
    look: config.publish.identity,
  };
}
