import type { ConfigInput } from './config-schema.js';

export {
  type Config,
  type ConfigInput,
  configSchema,
  DEFAULT_SOURCES,
  type SourceConfig,
} from './config-schema.js';
export {
  CONFIG_FILES,
  ignoredConfigNotice,
  type LoadedConfig,
  loadConfig,
  parseConfig,
} from './load-config.js';

/** Typed helper for digest.config.ts: `export default defineConfig({ ... })`. */
export function defineConfig(config: ConfigInput): ConfigInput {
  return config;
}
