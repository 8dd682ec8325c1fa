// What `digest send` needs from the config and the environment, checked before any mail: SMTP, the public base
// URL of the unsubscribe links (https), the DKIM key. Each problem names the setting or variable to fix.

import type { Config } from '../config/config-schema.js';
import type { SendConfig } from '../config/publish-schema.js';
import { ConfigError } from '../core/errors.js';
import { listUnsubscribeHeaders } from './list-unsubscribe.js';
import type { DkimKey, SmtpServer } from './smtp-pool.js';

/** The SMTP side of every mail: the server and how to reach it, and the DKIM key when one is configured. */
export interface MailTransport {
  server: SmtpServer;
  dkim?: DkimKey;
  /** publish.identity.replyTo: the Reply-To of every mail (checked in the config: one line, an address). */
  replyTo?: string;
}

export interface SendSettings {
  baseUrl: string;
  smtp: MailTransport;
  send: SendConfig;
}

export function sendSettings(config: Config, env: NodeJS.ProcessEnv, baseUrlFlag?: string): SendSettings {
  const { email } = config.publish;
  const smtp = email.smtp;
  if (!smtp) {
    throw new ConfigError('digest send needs publish.email.smtp in the config (host, port, user).', [
      { path: 'publish.email.smtp', message: 'required to send' },
    ]);
  }
  const baseUrl = baseUrlFlag ?? config.server.baseUrl ?? config.publish.baseUrl;
  if (!baseUrl) {
    throw new ConfigError(
      'digest send needs the public address of the site for unsubscribe links: set server.baseUrl or publish.baseUrl (or pass --base-url).',
      [{ path: 'publish.baseUrl', message: 'required to send' }],
    );
  }
  try {
    listUnsubscribeHeaders({ baseUrl, token: 'check', ...mailto(email.send) });
  } catch (error) {
    throw new ConfigError(`${(error as Error).message} (server.baseUrl / publish.baseUrl).`, [
      { path: 'publish.baseUrl', message: 'must be https for one-click unsubscribe' },
    ]);
  }
  if (email.send.leaseSeconds * 1000 < email.send.timeoutMs * 3) {
    throw new ConfigError(
      'publish.email.send.leaseSeconds must cover at least three SMTP timeouts (timeoutMs), or a slow mail would be judged lost while it is still being sent.',
      [{ path: 'publish.email.send.leaseSeconds', message: 'shorter than 3 × timeoutMs' }],
    );
  }
  return {
    baseUrl,
    send: email.send,
    smtp: mailTransportSettings(config, env)!,
  };
}

/**
 * The server every mail goes to and every check probes: host, TLS, timeout (publish.email.send.timeoutMs) and login
 * (the password from the variable publish.email.smtp.passwordEnv names). Null without publish.email.smtp.
 */
export function smtpServer(config: Config, env: NodeJS.ProcessEnv): SmtpServer | null {
  const { smtp, send } = config.publish.email;
  if (!smtp) return null;
  const { host, port, secure, requireTls, user } = smtp;
  const login = user ? { user, password: env[smtp.passwordEnv] ?? '' } : {};
  return { host, port, secure, requireTls, timeoutMs: send.timeoutMs, ...login };
}

/**
 * The one set of SMTP settings every mail goes out with (`digest send`, `email --send`, confirmations and welcomes):
 * the server (smtpServer) and the DKIM key. Null without publish.email.smtp.
 */
export function mailTransportSettings(config: Config, env: NodeJS.ProcessEnv): MailTransport | null {
  const server = smtpServer(config, env);
  if (!server) return null;
  const dkim = dkimKey(config, env);
  const { replyTo } = config.publish.identity;
  return { server, ...(dkim ? { dkim } : {}), ...(replyTo ? { replyTo } : {}) };
}

function dkimKey(config: Config, env: NodeJS.ProcessEnv): DkimKey | null {
  const dkim = config.publish.email.dkim;
  if (!dkim) return null;
  const privateKey = env[dkim.privateKeyEnv]?.replace(/\\n/g, '\n');
  if (!privateKey?.includes('PRIVATE KEY')) {
    throw new ConfigError(
      `publish.email.dkim is set but ${dkim.privateKeyEnv} holds no PEM private key: put the key (-----BEGIN PRIVATE KEY-----…) in that variable.`,
      [{ path: dkim.privateKeyEnv, message: 'missing or not a PEM private key' }],
    );
  }
  return { domainName: dkim.domainName, keySelector: dkim.keySelector, privateKey };
}

function mailto(send: SendConfig): { mailto?: string } {
  return send.unsubscribeMailto ? { mailto: send.unsubscribeMailto } : {};
}
