import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { z } from 'zod';
import { ConfigError } from '../core/errors.js';
import { type Config, configSchema } from './config-schema.js';

export const CONFIG_FILES = ['digest.config.ts', 'digest.config.js', 'digest.config.json'] as const;

export interface LoadedConfig {
  config: Config;
  /** The file it came from, or null for built-in defaults. */
  file: string | null;
  /** Other digest.config.* files in the folder, not read (the first of CONFIG_FILES wins): say so, never silently. */
  ignored: string[];
}

/** What every command says when more than one config file lies in the folder; null when one or none does. */
export function ignoredConfigNotice(loaded: Pick<LoadedConfig, 'file' | 'ignored'>): string | null {
  if (!loaded.file || !loaded.ignored.length) return null;
  const names = loaded.ignored.map((file) => basename(file)).join(' and ');
  return `Config: ${basename(loaded.file)} (${names} in the same folder is ignored: remove it, or pass --config to choose).`;
}

/** Validates a config object; errors name each bad field ("sources[1].url: must be an http(s) URL"). */
export function parseConfig(input: unknown, origin = 'config'): Config {
  // Parsed once per command: Zod's compiled fast path (a generated function per object) costs more to build than
  // it saves on one parse.
  const result = configSchema.safeParse(input ?? {}, { jitless: true });
  if (result.success) return withIdentityName(result.data);
  const issues = result.error.issues.map((issue) => ({
    path: formatPath(issue.path),
    message: issueMessage(issue),
  }));
  const lines = issues.map((issue) => `  - ${issue.path || '(root)'}: ${issue.message}`);
  throw new ConfigError(
    `Invalid ${origin}:\n${lines.join('\n')}\nFix the field(s) above and run again.`,
    issues,
  );
}

/**
 * publish.identity.name is the name readers see: it replaces `name` (titles, feeds) and the display name of
 * publish.email.from, so every page, feed and mail that reads those carries it without knowing about identities.
 */
function withIdentityName(config: Config): Config {
  const name = config.publish.identity.name;
  if (!name) return config;
  const from = config.publish.email.from;
  const address = /<([^>]+)>\s*$/.exec(from)?.[1] ?? from.trim();
  const display = name.replace(/["\\]/g, '');
  return {
    ...config,
    name,
    publish: { ...config.publish, email: { ...config.publish.email, from: `"${display}" <${address}>` } },
  };
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys')
    return `unknown field(s) ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
  return issue.message;
}

function formatPath(path: PropertyKey[]): string {
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
}

/** The environment's layer over the file: a JSON object whose fields replace the file's (objects merge). */
export const CONFIG_OVERRIDE_ENV = 'DIGEST_CONFIG_JSON';

/**
 * Loads `file`, or the first digest.config.{ts,js,json} in `cwd`, or the defaults; then DIGEST_CONFIG_JSON from `env`
 * over it (CI pointing the sources at recorded fixtures, a staging SMTP server) — defaults < file < env < flags.
 */
export async function loadConfig(
  options: { file?: string; cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<LoadedConfig> {
  const cwd = options.cwd ?? process.cwd();
  const present = CONFIG_FILES.map((name) => resolve(cwd, name)).filter(existsSync);
  const file = options.file ? resolve(cwd, options.file) : present[0];
  const ignored = options.file ? [] : present.slice(1);
  if (file && !existsSync(file))
    throw new ConfigError(`Config file not found: ${file}. Check the --config path.`);
  const raw = !file ? {} : file.endsWith('.json') ? await readJson(file) : await importModule(file);
  const override = options.env?.[CONFIG_OVERRIDE_ENV];
  if (!override)
    return { config: parseConfig(raw, file ? `config in ${file}` : 'config'), file: file ?? null, ignored };
  const layer = parseJson(override, CONFIG_OVERRIDE_ENV);
  const origin = `${file ? `config in ${file}` : 'config'} with ${CONFIG_OVERRIDE_ENV} over it`;
  return { config: parseConfig(overlay(raw, layer), origin), file: file ?? null, ignored };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `top` over `base`: objects merge field by field, anything else (arrays included) replaces. */
function overlay(base: unknown, top: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(top)) return top;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(top)) merged[key] = overlay(base[key], value);
  return merged;
}

function parseJson(text: string, origin: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConfigError(
      `${origin} is not valid JSON: ${(error as Error).message}`,
      [{ path: origin, message: 'not JSON' }],
      {
        cause: error,
      },
    );
  }
}

async function readJson(file: string): Promise<unknown> {
  return parseJson(await readFile(file, 'utf8'), file);
}

async function importModule(file: string): Promise<unknown> {
  try {
    if (/\.[cm]?ts$/.test(file)) return await importTypeScript(file);
    const module = (await import(pathToFileURL(file).href)) as { default?: unknown };
    return module.default ?? module;
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`Could not load ${file}: ${(error as Error).message}`, [], { cause: error });
  }
}

/**
 * The config is compiled on load with esbuild (the bundler that builds dist/), on every Node.js line: Node 20 cannot
 * import TypeScript, and the type stripping of Node 22 and later cannot load the documented config either: its
 * `./src/config/index.js` names a .ts file, as this project's imports do, and Node maps no .js import to a .ts file.
 * Its own relative imports are bundled in, packages stay imports. The result is written beside the config for one
 * import, so those package imports resolve from the project's node_modules.
 */
async function importTypeScript(file: string): Promise<unknown> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [file],
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text ?? '';
  const compiled = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.mjs`);
  await writeFile(compiled, code, { mode: 0o600 });
  try {
    const module = (await import(pathToFileURL(compiled).href)) as { default?: unknown };
    return module.default ?? module;
  } finally {
    await rm(compiled, { force: true });
  }
}
