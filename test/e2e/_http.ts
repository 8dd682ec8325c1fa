// A plain node:http client for the security suite: any header (Origin, Host) and any local address on loopback
// (127.0.0.2 is "another address" to the server, which sees the socket's address), bodies as given.
import { type Agent, request } from 'node:http';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** The client's address: 127.0.0.1 unless given (any 127.x.y.z works on Linux loopback). */
  from?: string;
  agent?: Agent;
}

export function httpRequest(url: string | URL, options: RequestOptions = {}): Promise<Answer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: options.method ?? 'GET',
        headers: {
          ...(options.body !== undefined ? { 'content-length': Buffer.byteLength(options.body) } : {}),
          ...options.headers,
        },
        ...(options.agent ? { agent: options.agent } : { agent: false }),
        ...(options.from ? { localAddress: options.from } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Polls `check` until it returns a value (not undefined) or the deadline passes (then throws `what`). */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  deadlineMs = 20_000,
): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`not within ${deadlineMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The p-th percentile (0–100) of some durations. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}
