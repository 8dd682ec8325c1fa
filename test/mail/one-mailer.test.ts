// One mailer: every SMTP connection in src — `digest send`, `email --send`, the outbox's confirmations and
// welcomes, the doctor's probe — is opened by mail/smtp-pool.ts (pool, TLS, auth, DKIM), with the one set of
// settings mail/settings.ts reads. A second transport (nodemailer's createTransport, its own SMTP connection or
// DKIM signer elsewhere) would send mail with other TLS, login or signing rules; this guard fails on it.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');
/** What opens or signs an SMTP session: nodemailer itself, its transports, its connection and DKIM modules. */
const TRANSPORT =
  /from 'nodemailer(?:\/lib\/(?:smtp-connection|smtp-pool|smtp-transport|dkim)[^']*)?'|\bcreateTransport\s*\(|new SMTPConnection\s*\(/;
/** The one module allowed to. */
const MAILER = 'mail/smtp-pool.ts';

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('one mailer', () => {
  it('only mail/smtp-pool.ts opens SMTP connections or signs mail', async () => {
    const files = await sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(200);
    const users = new Set<string>();
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      if (TRANSPORT.test(text)) users.add(relative(SRC, file));
    }
    expect([...users]).toEqual([MAILER]);
  });

  it('every sender and the probe take their server from mail/settings.ts', async () => {
    const files = await sourceFiles(SRC);
    const callers: string[] = [];
    const builders: string[] = [];
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      // A call of the pool's or the sender's factory, or the probe, outside the mail module itself.
      if (!/\b(createSmtpSender|createSmtpPool|probeSmtp)\(/.test(text)) continue;
      const name = relative(SRC, file);
      if (name.startsWith('mail/')) continue;
      callers.push(name);
      // It reads them itself, or it is handed the SendSettings that only mail/settings.ts's sendSettings() makes.
      const readsSettings = /\b(mailTransportSettings|sendSettings|smtpServer)\(/.test(text);
      const handedSettings =
        /import type \{[^}]*\bSendSettings\b[^}]*\} from '\.\.\/mail\/settings\.js'/.test(text);
      if (!readsSettings && !handedSettings) builders.push(name);
    }
    // send, email --send, the outbox, the doctor at least
    expect(callers.length).toBeGreaterThanOrEqual(4);
    expect(builders).toEqual([]);
  });
});
