// The SMTP connections of a send: nodemailer's SMTPConnection (the protocol, STARTTLS, AUTH), pooled here so each
// mail's terminating dot waits for the send log. A server keeps no mail without its final "<CRLF>.<CRLF>", so the
// order "record the hand-over, then write the dot" makes a crash leave only two kinds of rows: never handed over
// (certainly not delivered: sent again) and handed over (the server has, or is about to have, the whole mail).
// nodemailer's own pool reads the message before the envelope is accepted, which would move that record early.
import { Readable } from 'node:stream';
import DKIM from 'nodemailer/lib/dkim';
import SMTPConnection from 'nodemailer/lib/smtp-connection';

/** Where one connection goes and how: the server, its TLS, the timeout, the login. Every mail and check uses it. */
export interface SmtpServer {
  host: string;
  port: number;
  secure: boolean;
  requireTls: boolean;
  timeoutMs: number;
  user?: string;
  password?: string;
}

/** The DKIM key a mail is signed with. */
export interface DkimKey {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

export interface SmtpPoolSettings {
  server: SmtpServer;
  /** Connections kept open at most. */
  connections: number;
  dkim?: DkimKey & { headerFieldNames: string };
}

export interface PooledMail {
  envelope: { from: string; to: string[] };
  /** The whole message; bytes are sent (and signed) as they are. */
  raw: string | Buffer;
}

/** Another process took the row over before the dot: the mail was not finished, nothing was delivered. */
export class HandOverRefusedError extends Error {
  override name = 'HandOverRefusedError';
}

/**
 * The message for SMTPConnection.send, which pipes it only once the server has answered DATA with 354: the content
 * flows at once; the end of the stream (after which the connection writes the dot) waits for `handOver`.
 */
class GatedMessage extends Readable {
  started = false;
  refused = false;
  readonly #bytes: Buffer;
  readonly #handOver: (() => Promise<boolean>) | undefined;

  constructor(bytes: Buffer, handOver: (() => Promise<boolean>) | undefined) {
    super();
    this.#bytes = bytes;
    this.#handOver = handOver;
  }

  override _read(): void {
    if (this.started) return;
    this.started = true;
    this.push(this.#bytes);
    if (!this.#handOver) {
      this.push(null);
      return;
    }
    this.#handOver().then(
      (granted) => {
        if (granted) this.push(null);
        else {
          this.refused = true;
          this.destroy(
            new HandOverRefusedError('the send log row was taken over; the mail was not finished'),
          );
        }
      },
      (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
    );
  }
}

/** The server's final answer, and the recipients it refused (the others were accepted). */
export interface PoolAnswer {
  response: string;
  rejected: string[];
}

export interface SmtpPool {
  /** Sends one mail over a pooled connection; `handOver` runs right before the terminating dot. */
  send(mail: PooledMail, handOver?: () => Promise<boolean>): Promise<PoolAnswer>;
  close(): void;
}

/**
 * An unconnected SMTP connection with the one TLS and timeout policy every mail and every check uses: implicit TLS
 * when `secure`, else STARTTLS required when `requireTls`, else plain.
 */
export function smtpConnection(settings: Omit<SmtpServer, 'user' | 'password'>): SMTPConnection {
  return new SMTPConnection({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    requireTLS: settings.requireTls && !settings.secure,
    ignoreTLS: !settings.requireTls,
    connectionTimeout: settings.timeoutMs,
    greetingTimeout: settings.timeoutMs,
    socketTimeout: settings.timeoutMs,
  });
}

/**
 * A connected (and, when the server offers AUTH, logged-in) connection. Its later errors and its end only mark it
 * `broken`: the send's own callback reports them.
 */
function connect(server: SmtpServer, broken: WeakSet<SMTPConnection>): Promise<SMTPConnection> {
  return new Promise((resolve, reject) => {
    const connection = smtpConnection(server);
    let connected = false;
    connection.on('error', (error) => {
      broken.add(connection);
      if (!connected) reject(error);
    });
    connection.on('end', () => broken.add(connection));
    connection.connect((error) => {
      if (error) return reject(error);
      // As nodemailer's own transports do: log in when the server offers AUTH (a local relay may not).
      if (!server.user || !connection.allowsAuth) {
        connected = true;
        return resolve(connection);
      }
      connection.login({ user: server.user, pass: server.password ?? '' }, (loginError) => {
        if (loginError) {
          connection.close();
          return reject(loginError);
        }
        connected = true;
        resolve(connection);
      });
    });
  });
}

/** One SMTP transaction on a connection: envelope, DATA, the gated message. */
function transmit(
  connection: SMTPConnection,
  envelope: PooledMail['envelope'],
  message: GatedMessage,
): Promise<PoolAnswer> {
  return new Promise((resolve, reject) => {
    connection.send(envelope, message, (error, info) => {
      if (error) reject(message.refused ? new HandOverRefusedError(error.message, { cause: error }) : error);
      else resolve({ response: String(info?.response ?? ''), rejected: (info?.rejected ?? []).map(String) });
    });
  });
}

export function createSmtpPool(settings: SmtpPoolSettings): SmtpPool {
  const idle: SMTPConnection[] = [];
  const broken = new WeakSet<SMTPConnection>();
  const waiting: (() => void)[] = [];
  let open = 0;
  let closed = false;

  async function acquire(): Promise<{ connection: SMTPConnection; reused: boolean }> {
    for (;;) {
      if (closed) throw new Error('the SMTP connections were closed');
      const reused = idle.pop();
      if (reused) {
        if (!broken.has(reused)) return { connection: reused, reused: true };
        open--;
        reused.close();
        continue;
      }
      if (open < settings.connections) {
        open++;
        try {
          return { connection: await connect(settings.server, broken), reused: false };
        } catch (error) {
          open--;
          waiting.shift()?.();
          throw error;
        }
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  }

  function release(connection: SMTPConnection, healthy: boolean): void {
    if (healthy && !closed && !broken.has(connection)) idle.push(connection);
    else {
      open--;
      connection.close();
    }
    waiting.shift()?.();
  }

  return {
    async send(mail, handOver) {
      const { raw } = mail;
      const bytes = settings.dkim
        ? await signed(raw, settings.dkim)
        : typeof raw === 'string'
          ? Buffer.from(raw)
          : raw;
      for (let attempt = 0; ; attempt++) {
        const { connection, reused } = await acquire();
        const message = new GatedMessage(bytes, handOver);
        try {
          const answer = await transmit(connection, mail.envelope, message);
          release(connection, true);
          return answer;
        } catch (error) {
          // Whatever state the session is in, it is not reused.
          release(connection, false);
          // A kept connection the server had already dropped: not a byte was sent, so a new one may take it.
          if (reused && !message.started && attempt === 0 && !isServerAnswer(error)) continue;
          throw error;
        }
      }
    },
    close() {
      closed = true;
      for (const connection of idle.splice(0)) connection.close();
      for (const wake of waiting.splice(0)) wake();
    },
  };
}

function isServerAnswer(error: unknown): boolean {
  return typeof (error as { responseCode?: unknown }).responseCode === 'number';
}

/** DKIM-signed before sending, so the signature covers exactly the bytes the connection writes. */
async function signed(raw: string | Buffer, dkim: NonNullable<SmtpPoolSettings['dkim']>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of new DKIM(dkim).sign(raw)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
