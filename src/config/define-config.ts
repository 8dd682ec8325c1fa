import type { ConfigInput } from './config-schema.js';

/** Typed helper for digest.config.ts: `export default defineConfig({ ... })`. */
export function defineConfig(config: ConfigInput): ConfigInput {
  return config;
}
