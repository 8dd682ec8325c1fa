import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../core/errors.js';
import { publishEdition } from '../../pipeline/publish-edition.js';
import { safeUrl } from '../../publish/_html.js';
import { nodeFileSystem } from '../../publish/write-site.js';
import type { CliContext } from '../context.js';
import { type CommonOptions, resolveWeek, withRuntime } from '../runtime.js';

interface PublishCommandOptions extends CommonOptions {
  week?: string;
  out: string;
  baseUrl?: string;
}

/** The site's absolute address from --base-url or publish.baseUrl: feeds, sitemap and canonical links need it. */
export function resolveBaseUrl(flag: string | undefined, configured: string | undefined): string {
  const value = flag ?? configured;
  if (!value) {
    throw new ConfigError(
      'Publishing needs the address the site will be served from: pass --base-url https://… or set publish.baseUrl in the config.',
      [{ path: 'publish.baseUrl', message: 'required to publish' }],
    );
  }
  if (!safeUrl(value)) {
    throw new ConfigError(`--base-url must be an absolute http(s) URL (got "${value}").`, [
      { path: '--base-url', message: 'not an http(s) URL' },
    ]);
  }
  return value;
}

export function register(program: Command, context: CliContext): void {
  program
    .command('publish')
    .description(
      'Mark an edition published and write the site, feeds, email and Markdown (the archive from the store)',
    )
    .option('--week <date>', 'edition date YYYY-MM-DD (default: the most recent Monday)')
    .option('--out <dir>', 'output folder', 'out')
    .option('--base-url <url>', 'absolute URL the site is served from (default: publish.baseUrl)')
    .option('--config <file>', 'config file (default: digest.config.ts/.json in this folder)')
    .option('--data-dir <dir>', 'PGlite data folder (default ./data, or DIGEST_DATA_DIR)')
    .option('--verbose', 'more log lines')
    .action(async (options: PublishCommandOptions) => {
      const week = resolveWeek(options.week);
      await withRuntime(options, context, async (runtime) => {
        const { config, store, log } = runtime;
        const baseUrl = resolveBaseUrl(options.baseUrl, config.publish.baseUrl);
        const outDir = resolve(context.cwd, options.out);
        const result = await publishEdition({
          store,
          fs: nodeFileSystem,
          outDir,
          date: week,
          baseUrl,
          siteName: config.name,
          feedLimit: config.publish.feedLimit,
          email: config.publish.email,
          now: new Date(),
        });
        log.info(
          `${result.newlyPublished ? 'Published' : 'Already published; rewrote'} "${result.edition.title}" ` +
            `(${result.edition.publishedAt}) — site of ${result.editions} edition(s), ${result.files.length} files in ${outDir}`,
        );
        context.stdout.write(`${resolve(outDir, week, 'index.html')}\n`);
      });
    });
}
