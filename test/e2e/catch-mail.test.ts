// The mail catcher the docs offer for trying the service without Docker (scripts/catch-mail.mjs): the real script on
// a free loopback port, a real mail sent to it with a login, what it prints.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createTransport } from 'nodemailer';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/catch-mail.mjs', import.meta.url));

describe('scripts/catch-mail.mjs', () => {
  it('accepts a mail (with any login) and prints its sender, recipient, subject and links', async () => {
    const child = spawn(process.execPath, [SCRIPT, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const lines: string[] = [];
    const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      for (const waiter of waiters.filter((entry) => entry.pattern.test(line))) waiter.resolve(line);
    });
    const lineMatching = (pattern: RegExp) =>
      new Promise<string>((resolve) => {
        const found = lines.find((line) => pattern.test(line));
        if (found) resolve(found);
        else waiters.push({ pattern, resolve });
      });
    try {
      const listening = await lineMatching(/listening smtp:\/\/127\.0\.0\.1:\d+/);
      const port = Number(/:(\d+) /.exec(listening)?.[1]);
      const transport = createTransport({
        host: '127.0.0.1',
        port,
        secure: false,
        ignoreTLS: true,
        auth: { user: 'digest', pass: 'anything' },
      });
      await transport.sendMail({
        from: 'LLM News Digest <digest@news.example.org>',
        to: 'ada@example.org',
        subject: 'Confirm your subscription',
        text: 'Confirm: https://digest.example.org/confirm?token=abc.\nOr ignore this mail.',
      });
      await lineMatching(/^link:/);
      expect(lines.slice(1)).toEqual([
        '── mail 1',
        'from:    "LLM News Digest" <digest@news.example.org>',
        'to:      ada@example.org',
        'subject: Confirm your subscription',
        'link:    https://digest.example.org/confirm?token=abc',
      ]);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('refuses a port that is not one, with exit 2', async () => {
    const child = spawn(process.execPath, [SCRIPT, '--port', 'smtp'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(2);
    expect(stderr).toContain('--port: "smtp" is not a port');
  });
});
