// `digest init`: the answers (asked, or flags with --yes) become digest.config.json and a private .env holding a
// fresh DIGEST_SECRET; then what can be checked from here is checked, and nothing is left half-written.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { CONFIG_FILES, type ConfigInput, DEFAULT_SOURCES, parseConfig } from '../config/index.js';
import { LOOPBACK_HOSTS } from '../core/email-address.js';
import { ConfigError } from '../core/errors.js';
import { keySetting, providerOf } from '../llm/providers.js';
import { defaultSender } from './sender.js';

export interface InitAnswers {
  name: string;
  /** Where readers reach the site: links in mails, the subscribe form's origin. */
  baseUrl: string;
  /** Preset source ids (api-hf, rss-openai, rss-latentspace, rss-willison) and feed URLs. */
  sources: string[];
  /** "provider:model", or null for the offline extractive writer. */
  model: string | null;
  /** The model's key, to keep in .env (empty: added later by hand). */
  apiKey?: string;
  /** "host:port" of the SMTP server, or null: no mail (no subscribing) yet. */
  smtp: string | null;
  smtpUser?: string;
  /** The sender; default from the base URL's domain (see defaultSender). */
  from?: string;
  /** The sender's postal address, printed in every mail (publish.identity.postalAddress); empty: none yet. */
  postalAddress?: string;
}

export interface InitCheck {
  ok: boolean;
  /** Worth knowing, not a problem now (an http base URL is fine for trying the service on this machine). */
  note?: boolean;
  text: string;
}

export interface InitResult {
  configFile: string;
  envFile: string;
  checks: InitCheck[];
}

export async function initProject(input: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  answers: InitAnswers;
  force?: boolean;
}): Promise<InitResult> {
  const configFile = join(input.cwd, 'digest.config.json');
  const envFile = join(input.cwd, '.env');
  if (!input.force) {
    for (const existing of [...CONFIG_FILES.map((name) => join(input.cwd, name)), envFile]) {
      if (existsSync(existing))
        throw new ConfigError(
          `${existing} already exists: keep it, or run "./digest init --force" to replace it.`,
          [{ path: existing, message: 'exists' }],
        );
    }
  }
  const { config, keyEnv, smtp } = configFromAnswers(input.answers);
  // Checked before anything is written: a bad answer names its field, exit 2.
  parseConfig(config, 'answers');
  await writeFile(configFile, `${JSON.stringify(config, null, 2)}\n`);
  await writeFile(envFile, dotEnvText(input.answers, keyEnv), { mode: 0o600 });
  const checks: InitCheck[] = [{ ok: true, text: `wrote ${configFile} and ${envFile} (private: 0600)` }];
  if (keyEnv) checks.push(keyCheck(keyEnv, input.answers.apiKey, input.env));
  if (smtp) checks.push(await smtpCheck(smtp.host, smtp.port));
  else
    checks.push({
      ok: false,
      text: 'no SMTP server: readers cannot subscribe until publish.email.smtp is set',
    });
  if (!input.answers.baseUrl.startsWith('https://'))
    checks.push({
      ok: false,
      note: true,
      text: `${input.answers.baseUrl} is fine for trying; mail to readers needs an https base URL`,
    });
  return { configFile, envFile, checks };
}

function configFromAnswers(answers: InitAnswers) {
  if (answers.model && providerOf(answers.model) === 'openai-compatible')
    throw new ConfigError(
      'digest init sets up openai:, anthropic: or ollama: models; add llm.openaiCompatible by hand.',
      [{ path: '--model', message: 'openai-compatible needs llm.openaiCompatible.baseURL' }],
    );
  const keyEnv = answers.model ? keySetting(answers.model, {}) : null;
  const smtp = answers.smtp ? parseHostPort(answers.smtp) : null;
  const config: ConfigInput = {
    name: answers.name,
    sources: answers.sources.map(toSource),
    ...(answers.model ? { llm: { write: answers.model } } : {}),
    publish: {
      baseUrl: answers.baseUrl,
      email: {
        from: answers.from ?? defaultSender(answers.name, answers.baseUrl),
        ...(smtp
          ? {
              smtp: {
                ...smtp,
                // A local mail catcher offers no TLS; any other server must.
                ...(LOOPBACK_HOSTS.has(smtp.host) ? { requireTls: false } : {}),
                ...(answers.smtpUser ? { user: answers.smtpUser } : {}),
              },
            }
          : {}),
      },
      ...(answers.postalAddress ? { identity: { postalAddress: answers.postalAddress } } : {}),
    },
  };
  return { config, keyEnv: keyEnv === 'OLLAMA_BASE_URL' ? null : keyEnv, smtp };
}

function parseHostPort(value: string): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(value.trim());
  const port = Number(match?.[2] ?? 587);
  if (!match?.[1] || port < 1 || port > 65_535)
    throw new ConfigError(`--smtp must be host or host:port (got "${value}").`, [
      { path: '--smtp', message: 'not host:port' },
    ]);
  return { host: match[1], port };
}

function toSource(entry: string) {
  const preset = DEFAULT_SOURCES.find((source) => source.id === entry);
  if (preset) return { ...preset };
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw new ConfigError(
      `--sources: "${entry}" is neither a known source (${DEFAULT_SOURCES.map((source) => source.id).join(', ')}) nor a feed URL.`,
      [{ path: '--sources', message: `unknown source "${entry}"` }],
    );
  }
  const label = url.hostname.replace(/^www\./, '').split('.')[0] ?? 'feed';
  return {
    id: `rss-${label.toLowerCase().replace(/[^a-z0-9-]/g, '-')}`,
    type: 'feed' as const,
    url: url.href,
  };
}

function dotEnvText(answers: InitAnswers, keyEnv: string | null): string {
  const lines = [
    '# Written by digest init. Private: keep it out of version control. The real environment wins over it.',
    '# Signs confirmation and unsubscribe links: keep it stable (a new one invalidates every link already mailed).',
    `DIGEST_SECRET=${randomBytes(48).toString('base64')}`,
  ];
  if (keyEnv) lines.push(answers.apiKey ? `${keyEnv}=${answers.apiKey}` : `# ${keyEnv}=`);
  if (answers.smtp && answers.smtpUser) lines.push('# DIGEST_SMTP_PASSWORD=');
  return `${lines.join('\n')}\n`;
}

function keyCheck(keyEnv: string, apiKey: string | undefined, env: NodeJS.ProcessEnv): InitCheck {
  if (apiKey || env[keyEnv]) return { ok: true, text: `${keyEnv} is set` };
  return { ok: false, text: `${keyEnv} is not set: add it to .env (until then builds need --offline)` };
}

/**
 * What to do when nothing answers: the config is written and fine (the demo, build and publish need no mail), but
 * readers cannot subscribe until it does.
 */
function smtpNextStep(host: string, port: number): string {
  const start = LOOPBACK_HOSTS.has(host)
    ? `start a mail catcher on port ${port} (in a clone: npm run catch-mail; or Mailpit: mailpit --smtp 127.0.0.1:${port})`
    : 'check publish.email.smtp.host and .port in digest.config.json (and the firewall)';
  return `.\n  Until it answers, readers cannot subscribe (build, demo and publish need no mail). Next: ${start}, then run ./digest doctor.`;
}

/** Whether something answers on the SMTP port (no mail is sent): a typo in the host shows now, not at the first reader. */
function smtpCheck(host: string, port: number): Promise<InitCheck> {
  const target = `${host}:${port}`;
  return new Promise((resolve) => {
    const socket = connect({ host: host.replace(/^\[|\]$/g, ''), port, timeout: 3000 });
    const done = (check: InitCheck) => {
      socket.destroy();
      resolve(check);
    };
    socket.once('connect', () => done({ ok: true, text: `the SMTP server at ${target} answers` }));
    socket.once('timeout', () =>
      done({
        ok: false,
        text: `the SMTP server at ${target} did not answer within 3 s${smtpNextStep(host, port)}`,
      }),
    );
    socket.once('error', (error) =>
      done({ ok: false, text: `the SMTP server at ${target}: ${error.message}${smtpNextStep(host, port)}` }),
    );
  });
}
