// A real SMTP server on loopback that keeps every message it receives, parsed by mailparser.
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  parsed: ParsedMail;
}

export interface LoopbackSmtp {
  port: number;
  received: ReceivedMail[];
  /** Resolves with the `count`-th message (1-based) once it has arrived. */
  next(count?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** On a free port, or on `port` (a server that comes back where the service expects it). */
export async function startSmtp(port = 0): Promise<LoopbackSmtp> {
  const received: ReceivedMail[] = [];
  const waiting: { count: number; resolve: (mail: ReceivedMail) => void }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // close() ends the connections a pooled mailer keeps open after 0.1 s, not smtp-server's 30 s.
    closeTimeout: 100,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw).then(
          (parsed) => {
            received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw, parsed });
            for (const waiter of waiting.filter((entry) => entry.count <= received.length)) {
              waiting.splice(waiting.indexOf(waiter), 1);
              waiter.resolve(received[waiter.count - 1]!);
            }
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    next(count = received.length + 1) {
      const have = received[count - 1];
      if (have) return Promise.resolve(have);
      return new Promise((resolve) => waiting.push({ count, resolve }));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link of a mail's text part that starts with `prefix`. */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const link = (mail.parsed.text ?? '').split(/\s+/).find((word) => word.startsWith(prefix));
  if (!link) throw new Error(`no ${prefix} link in:\n${mail.parsed.text}`);
  return link;
}
