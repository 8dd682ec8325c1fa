export {
  type Config,
  type ConfigInput,
  configSchema,
  DEFAULT_SOURCES,
  type SourceConfig,
} from './config-schema.js';
export { defineConfig } from './define-config.js';
export {
  CONFIG_FILES,
  ignoredConfigNotice,
  type LoadedConfig,
  loadConfig,
  parseConfig,
} from './load-config.js';
