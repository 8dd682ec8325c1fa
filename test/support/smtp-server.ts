// A real SMTP server on loopback for the send tests: it records every mail it accepts and can answer as a broken
// server would (refuse a recipient with 4xx or 5xx, take its time before "250").
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  from: string;
  raw: string;
}

export interface SmtpBehaviour {
  /** An SMTP error for this recipient's RCPT TO (attempt counts from 1 per address), or null to accept. */
  rcpt?: (address: string, attempt: number) => { code: number; message: string } | null;
  /** Milliseconds to wait before answering RCPT TO (a server too slow to take the mail at all). */
  rcptDelayMs?: (address: string, attempt: number) => number;
  /** Milliseconds to wait before answering the end of DATA (attempt counts from 1 per address). */
  dataDelayMs?: (address: string, attempt: number) => number;
  /** Called with each accepted mail before the server answers "250". */
  onMail?: ((mail: ReceivedMail) => Promise<void> | void) | undefined;
  /** Keep only counts per recipient (for 10,000-mail runs). */
  countOnly?: boolean;
}

export interface TestSmtpServer {
  port: number;
  mails: ReceivedMail[];
  /** Mails accepted per recipient address. */
  counts: Map<string, number>;
  behaviour: SmtpBehaviour;
  close(): Promise<void>;
}

export async function startSmtpServer(behaviour: SmtpBehaviour = {}): Promise<TestSmtpServer> {
  const mails: ReceivedMail[] = [];
  const counts = new Map<string, number>();
  const rcptAttempts = new Map<string, number>();
  const dataAttempts = new Map<string, number>();
  const state: TestSmtpServer = {
    port: 0,
    mails,
    counts,
    behaviour,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // close() ends the connections a pooled mailer keeps open after 0.1 s, not smtp-server's 30 s.
    closeTimeout: 100,
    size: 10 * 1024 * 1024,
    onRcptTo(address, _session, callback) {
      const attempt = (rcptAttempts.get(address.address) ?? 0) + 1;
      rcptAttempts.set(address.address, attempt);
      const refusal = state.behaviour.rcpt?.(address.address, attempt);
      const answer = () => {
        if (!refusal) return callback();
        const error = new Error(refusal.message) as Error & { responseCode: number };
        error.responseCode = refusal.code;
        callback(error);
      };
      const wait = state.behaviour.rcptDelayMs?.(address.address, attempt) ?? 0;
      if (wait) setTimeout(answer, wait);
      else answer();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((address) => address.address);
        const first = to[0] ?? '';
        const attempt = (dataAttempts.get(first) ?? 0) + 1;
        dataAttempts.set(first, attempt);
        const mail: ReceivedMail = {
          to,
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          raw: state.behaviour.countOnly ? '' : Buffer.concat(chunks).toString('utf8'),
        };
        const wait = state.behaviour.dataDelayMs?.(first, attempt) ?? 0;
        setTimeout(async () => {
          for (const address of to) counts.set(address, (counts.get(address) ?? 0) + 1);
          if (!state.behaviour.countOnly) mails.push(mail);
          await state.behaviour.onMail?.(mail);
          callback(null, 'Ok: queued');
        }, wait);
      });
    },
  });
  // A killed client resets its connection: that is the test, not a server failure.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.server.address() as AddressInfo).port;
  return state;
}

/** One received mail taken apart: headers (unfolded, by lowercase name) and the decoded text and HTML parts. */
export interface ParsedMail {
  headers: Map<string, string[]>;
  text: string;
  html: string;
}

export function parseMail(raw: string): ParsedMail {
  const [head, body] = splitOnce(raw, '\r\n\r\n');
  const headers = parseHeaders(head);
  const boundary = /boundary="?([^";]+)"?/i.exec(headers.get('content-type')?.[0] ?? '')?.[1];
  let text = '';
  let html = '';
  if (boundary) {
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith('--')) break;
      const [partHead, partBody] = splitOnce(part.replace(/^\r\n/, ''), '\r\n\r\n');
      const partHeaders = parseHeaders(partHead);
      const decoded = decodeBody(
        partBody.replace(/\r\n$/, ''),
        partHeaders.get('content-transfer-encoding')?.[0],
      );
      if (/text\/html/i.test(partHeaders.get('content-type')?.[0] ?? '')) html = decoded;
      else text = decoded;
    }
  } else text = decodeBody(body, headers.get('content-transfer-encoding')?.[0]);
  return { headers, text, html };
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + separator.length)];
}

function parseHeaders(head: string): Map<string, string[]> {
  const headers = new Map<string, string[]>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  return headers;
}

function decodeBody(body: string, encoding = '7bit'): string {
  if (/quoted-printable/i.test(encoding)) {
    const bytes = body
      .replace(/=\r\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  if (/base64/i.test(encoding)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}
