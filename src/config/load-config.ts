import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { z } from 'zod';
import { ConfigError } from '../core/errors.js';
import { type Config, configSchema } from './schema.js';

export const CONFIG_FILES = ['digest.config.ts', 'digest.config.js', 'digest.config.json'] as const;

export interface LoadedConfig {
  config: Config;
  /** The file it came from, or null for built-in defaults. */
  file: string | null;
}

/** Validates a config object; errors name each bad field ("sources[1].url: must be an http(s) URL"). */
export function parseConfig(input: unknown, origin = 'config'): Config {
  const result = configSchema.safeParse(input ?? {});
  if (result.success) return result.data;
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

/** Loads `file`, or the first digest.config.{ts,js,json} in `cwd`, or the defaults. */
export async function loadConfig(options: { file?: string; cwd?: string } = {}): Promise<LoadedConfig> {
  const cwd = options.cwd ?? process.cwd();
  const file = options.file
    ? resolve(cwd, options.file)
    : CONFIG_FILES.map((name) => resolve(cwd, name)).find(existsSync);
  if (!file) return { config: parseConfig({}), file: null };
  if (!existsSync(file)) throw new ConfigError(`Config file not found: ${file}. Check the --config path.`);
  const raw = file.endsWith('.json') ? await readJson(file) : await importModule(file);
  return { config: parseConfig(raw, `config in ${file}`), file };
}

async function readJson(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file} is not valid JSON: ${(error as Error).message}`, [], { cause: error });
  }
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
 * Node 20 cannot import TypeScript, so the config is compiled on load with esbuild (the bundler that builds dist/):
 * its own relative imports (`./src/config/index.js` in a clone) are bundled in, packages stay imports. The result is
 * written beside the config for one import, so those package imports resolve from the project's node_modules.
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
