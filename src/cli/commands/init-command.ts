// `digest init`: a new newsletter's digest.config.json and .env, asked for (or taken from flags with --yes).
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { DEFAULT_SOURCES } from '../../config/index.js';
import { defaultSender, type InitAnswers } from '../../setup/index.js';
import type { CliContext } from '../context.js';
import { declareCommand } from './declarations.js';

/** The flags that answer init's questions (each one's default, when it asks). */
interface AnswerFlags {
  name: string;
  baseUrl: string;
  sources: string;
  model?: string;
  smtp?: string;
  smtpUser?: string;
  from?: string;
  postalAddress?: string;
}

interface InitOptions extends AnswerFlags {
  yes?: boolean;
  force?: boolean;
}

const DEFAULTS = {
  name: 'LLM News Digest',
  baseUrl: 'http://127.0.0.1:8080/',
  sources: DEFAULT_SOURCES.map((source) => source.id).join(','),
};

export function register(program: Command, context: CliContext): void {
  declareCommand(program, 'init')
    .option('--yes', 'ask nothing: take the flags and the defaults')
    .option('--force', 'replace an existing config and .env')
    .option('--name <name>', 'newsletter name', DEFAULTS.name)
    .option('--base-url <url>', 'where readers reach the site', DEFAULTS.baseUrl)
    .option('--sources <list>', `comma-separated: ${DEFAULTS.sources}, or feed URLs`, DEFAULTS.sources)
    .option(
      '--model <provider:model>',
      'LLM writer, e.g. openai:gpt-4.1-mini (default: none, the offline writer)',
    )
    .option(
      '--smtp <host:port>',
      'SMTP server for confirmation mails and editions, e.g. 127.0.0.1:1025 (a mail catcher)',
    )
    .option('--smtp-user <user>', 'SMTP user (its password goes in .env as DIGEST_SMTP_PASSWORD)')
    .option(
      '--from <address>',
      'sender, e.g. "Digest <news@your-domain>" (default: digest@ the base URL\'s domain; digest@digest.localhost for a local one)',
    )
    .option(
      '--postal-address <address>',
      'your postal address, printed in every mail (CAN-SPAM requires one); lines separated by ", "',
    )
    .action(async (options: InitOptions) => {
      const answers = options.yes ? fromFlags(options) : await ask(options, context);
      const { initProject } = await import('../../setup/index.js');
      const result = await initProject({
        cwd: context.cwd,
        env: context.env,
        answers,
        force: !!options.force,
      });
      for (const check of result.checks) {
        context.stdout.write(`${check.ok ? '✓' : check.note ? '!' : '✗'} ${check.text}\n`);
      }
      context.stdout.write(nextSteps(context.cwd));
    });
}

function fromFlags(options: AnswerFlags): InitAnswers {
  return {
    name: options.name,
    baseUrl: options.baseUrl,
    sources: options.sources
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
    model: options.model?.trim() || null,
    smtp: options.smtp?.trim() || null,
    ...(options.smtpUser ? { smtpUser: options.smtpUser } : {}),
    ...(options.from ? { from: options.from } : {}),
    ...(options.postalAddress?.trim() ? { postalAddress: options.postalAddress.trim() } : {}),
  };
}

/** One question per answer, the flag's value as the default (Enter keeps it). */
async function ask(options: AnswerFlags, context: CliContext): Promise<InitAnswers> {
  // Lines are read from an iterator, which buffers them: answers piped in all at once are not lost between questions.
  const reader = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  const lines = reader[Symbol.asyncIterator]();
  const question = async (text: string, fallback = '') => {
    context.stderr.write(`${text}${fallback ? ` [${fallback}]` : ''}: `);
    const next = await lines.next();
    return (next.done ? '' : next.value).trim() || fallback;
  };
  try {
    const name = await question('Newsletter name', options.name);
    const baseUrl = await question('Address readers reach the site at', options.baseUrl);
    const sources = await question('Sources (known ids or feed URLs, comma-separated)', options.sources);
    const model = await question(
      'LLM writer, provider:model (empty: the offline extractive writer)',
      options.model,
    );
    const apiKey = model ? await question('Its API key, kept in .env (empty: add it later)') : '';
    const smtp = await question(
      'SMTP server host:port (127.0.0.1:1025 for a local mail catcher; empty: none yet)',
      options.smtp,
    );
    const smtpUser = smtp ? await question('SMTP user (empty: none)', options.smtpUser) : '';
    const from = await question('Sender address', options.from ?? defaultSender(name, baseUrl));
    const postalAddress = smtp
      ? await question(
          'Your postal address, printed in every mail (empty: add it later)',
          options.postalAddress,
        )
      : '';
    const answers = fromFlags({
      ...options,
      name,
      baseUrl,
      sources,
      model,
      smtp,
      from,
      ...(smtpUser ? { smtpUser } : {}),
      ...(postalAddress ? { postalAddress } : {}),
    });
    return { ...answers, ...(apiKey ? { apiKey } : {}) };
  } finally {
    reader.close();
  }
}

function nextSteps(cwd: string): string {
  return [
    '',
    'Next:',
    '  ./digest build     # this week from your sources (--offline: no LLM calls)',
    '  ./digest publish   # the site in ./out: pages, feeds, email',
    '  ./digest serve     # the site, subscribing, the desk and the weekly schedule',
    'Then run `./digest doctor` to check the whole set-up. (To try it first without network: ./digest demo.)',
    '',
    'Weekly: digest serve builds Mondays at 07:00 UTC (config "schedule"); without it, this crontab line does it:',
    `0 7 * * 1  cd ${shellWord(resolve(cwd))} && ./digest build && ./digest publish && ./digest send`,
    '',
  ].join('\n');
}

function shellWord(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
}
