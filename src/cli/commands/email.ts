import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../core/errors.js';
import { loadEdition } from '../../pipeline/publish-edition.js';
import { EMAIL_FILES, writeEmailFiles } from '../../publish/email-files.js';
import { createSmtpMailer, sendEditionEml } from '../../publish/email-message.js';
import { nodeFileSystem } from '../../publish/write-site.js';
import type { CliContext } from '../context.js';
import { type CommonOptions, resolveWeek, withRuntime } from '../runtime.js';

interface EmailCommandOptions extends CommonOptions {
  week?: string;
  out: string;
  baseUrl?: string;
  send?: boolean;
  to?: string[];
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function register(program: Command, context: CliContext): void {
  program
    .command('email')
    .description(
      'Write the edition as email: email.html, email.txt and a complete edition.eml (optionally send it)',
    )
    .option('--week <date>', 'edition date YYYY-MM-DD (default: the most recent Monday)')
    .option('--out <dir>', 'output folder', 'out')
    .option('--base-url <url>', 'site address for "View in your browser" links (default: publish.baseUrl)')
    .option('--send', 'send edition.eml through publish.email.smtp (password from its passwordEnv variable)')
    .option('--to <address>', 'recipient for --send, repeatable (default: publish.email.to)', collect)
    .option('--config <file>', 'config file (default: digest.config.ts/.json in this folder)')
    .option('--data-dir <dir>', 'PGlite data folder (default ./data, or DIGEST_DATA_DIR)')
    .option('--verbose', 'more log lines')
    .action(async (options: EmailCommandOptions) => {
      const week = resolveWeek(options.week);
      await withRuntime(options, context, async (runtime) => {
        const { config, store, log } = runtime;
        const edition = await loadEdition(store, week);
        const outDir = resolve(context.cwd, options.out);
        const baseUrl = options.baseUrl ?? config.publish.baseUrl;
        const { files, email } = await writeEmailFiles(nodeFileSystem, outDir, edition, {
          email: config.publish.email,
          ...(baseUrl ? { baseUrl } : {}),
        });
        log.info(
          `Wrote ${files.length} files (${(Buffer.byteLength(email.html) / 1024).toFixed(1)} KB HTML) to ${resolve(outDir, week)}`,
        );
        if (options.send) {
          const smtp = config.publish.email.smtp;
          if (!smtp) {
            throw new ConfigError('--send needs publish.email.smtp in the config (host, port, user).', [
              { path: 'publish.email.smtp', message: 'required for --send' },
            ]);
          }
          const to = options.to ?? config.publish.email.to;
          const mailer = createSmtpMailer({
            host: smtp.host,
            port: smtp.port,
            secure: smtp.secure,
            requireTls: smtp.requireTls,
            ...(smtp.user ? { user: smtp.user, password: context.env[smtp.passwordEnv] ?? '' } : {}),
          });
          const from = /<([^>]+)>/.exec(config.publish.email.from)?.[1] ?? config.publish.email.from;
          const sent = await sendEditionEml(mailer, email.eml, { from, to });
          log.info(`Sent to ${sent.accepted} of ${to.length} recipient(s) via ${smtp.host}:${smtp.port}`);
        }
        context.stdout.write(`${resolve(outDir, week, EMAIL_FILES.eml)}\n`);
      });
    });
}
