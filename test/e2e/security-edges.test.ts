import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_HEADERS, type Served } from '../support/serve.js';
import { SERVED_BASE, startServedDigest, stopServedDigest } from '../support/served-digest.js';
import { type LoopbackSmtp, linkIn, startSmtp } from '../support/smtp-inbox.js';
import { type Answer, eventually, httpRequest } from './_http.js';

const BASE = SERVED_BASE;
const ORIGIN = 'https://digest.example.org';
const JSON_POST = { 'content-type': 'application/json', accept: 'application/json', origin: ORIGIN };
const FORM_POST = { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN };
const MCP_POST = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('digest serve at its edges (real process, loopback)', () => {
  let cwd: string;
  let smtp: LoopbackSmtp;
  let served: Served;
  const url = (path: string) => new URL(path, served.url);
  const subscribe = (email: string, from: string, extra: Record<string, unknown> = {}) =>
    httpRequest(url('subscribe'), {
      method: 'POST',
      headers: JSON_POST,
      body: JSON.stringify({ email, ...extra }),
      from,
    });
  const metric = async (line: string) => {
    const text = (await httpRequest(url('metrics'), { headers: OPERATOR_HEADERS })).text;
    const escaped = line.replace(/[{}"=]/g, (char) => `\\${char}`);
    return Number(new RegExp(`^${escaped} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  };
  /** Every mail the outbox holds has gone out (or failed): nothing waits. */
  const outboxDrained = () =>
    eventually('an empty outbox', async () =>
      (await metric('digest_outbox_mails{state="waiting"}')) === 0 ? true : undefined,
    );

  beforeAll(async () => {
    smtp = await startSmtp();
    ({ cwd, served } = await startServedDigest({
      prefix: 'digest-security-edges-',
      name: 'Edges Digest',
      smtpPort: smtp.port,
      server: { welcomeMail: true, outbox: { pollMs: 50 }, metricsListen: '127.0.0.1:0' },
    }));
  }, 180_000);

  afterAll(() => stopServedDigest({ served, smtp, cwd }));

  it('a batch holding arrays is a 400 before any work, six in a row; a flat one after it is answered', async () => {
    const search = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'search_items', arguments: { q: 'model', limit: 1 } },
    });
    const nested = Array.from({ length: 10 }, (_, outer) =>
      Array.from({ length: 100 }, (_, inner) => search(outer * 100 + inner)),
    );
    for (let round = 0; round < 6; round++) {
      const answer = await httpRequest(url('mcp'), {
        method: 'POST',
        headers: MCP_POST,
        body: JSON.stringify(nested),
        from: '127.0.0.20',
      });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
    }
    const flat = await httpRequest(url('mcp'), {
      method: 'POST',
      headers: MCP_POST,
      body: JSON.stringify(Array.from({ length: 10 }, (_, index) => search(index))),
      from: '127.0.0.20',
    });
    expect(flat.status).toBe(200);
    expect(JSON.parse(flat.text)).toHaveLength(10);
  }, 60_000);

  it('40 variants of one Gmail inbox from 4 source addresses deliver one confirmation mail', async () => {
    const before = smtp.received.length;
    const name = 'johnsmithx';
    // Dots anywhere, the other domain, a +tag: all johnsmithx@gmail.com's inbox.
    const variants = Array.from({ length: 40 }, (_, index) => {
      const at = 1 + (index % (name.length - 1));
      const dotted = `${name.slice(0, at)}.${name.slice(at)}`;
      const domain = index % 2 === 0 ? 'gmail.com' : 'googlemail.com';
      return index % 5 === 0 ? `${dotted}+n${index}@${domain}` : `${dotted}@${domain}`;
    });
    const answers = await Promise.all(
      variants.map((email, index) => subscribe(email, `127.0.0.${31 + (index % 4)}`)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(200));
    await outboxDrained();
    expect(smtp.received.length - before).toBe(1);
    expect(smtp.received.at(-1)!.to[0]).toMatch(/^j[.a-z0-9+]*@(gmail|googlemail)\.com$/);
  }, 60_000);

  it('/healthz does not move on a subscribe: no counts, the same body before and after', async () => {
    const before = await httpRequest(url('healthz'));
    expect(JSON.parse(before.text)).toEqual({ status: 'ok', database: 'ok', mail: { status: 'ok' } });
    expect((await subscribe('unknown-reader@example.net', '127.0.0.40')).status).toBe(200);
    for (let index = 0; index < 3; index++) {
      expect((await httpRequest(url('healthz'))).text).toBe(before.text);
    }
    await outboxDrained();
  }, 60_000);

  it('a huge, zero or non-canonical token id is a 400 on every token route, and nothing reaches the database', async () => {
    const signature = 'A'.repeat(43);
    const encode = (id: string) => Buffer.from(id).toString('base64url');
    const tokens = [
      `p.${encode('999999999999999')}.zzzzzz.${signature}`,
      `u.${encode('2147483648')}.zzzzzz.${signature}`,
      `c2.${encode('99999999999')}.1.zzzzzz.AAAAAAAAAAA.${signature}`,
      `p2.MR.1.zzzzzz.AAAAAAAAAAA.${signature}`,
      `u.${encode('0')}.zzzzzz.${signature}`,
    ];
    const answers: [string, Answer][] = [];
    for (const token of tokens) {
      const query = `?token=${token}`;
      const form = new URLSearchParams({ token }).toString();
      answers.push(
        [`GET /confirm ${token}`, await httpRequest(url(`confirm${query}`))],
        [`GET /unsubscribe ${token}`, await httpRequest(url(`unsubscribe${query}`))],
        [`GET /preferences ${token}`, await httpRequest(url(`preferences${query}`))],
        [
          `POST /confirm ${token}`,
          await httpRequest(url('confirm'), { method: 'POST', headers: FORM_POST, body: form }),
        ],
        [
          `POST /unsubscribe ${token}`,
          await httpRequest(url('unsubscribe'), { method: 'POST', headers: FORM_POST, body: form }),
        ],
        [
          `POST /unsubscribe one-click ${token}`,
          await httpRequest(url(`unsubscribe${query}`), {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: 'List-Unsubscribe=One-Click',
          }),
        ],
        [
          `POST /preferences ${token}`,
          await httpRequest(url('preferences'), { method: 'POST', headers: FORM_POST, body: form }),
        ],
      );
    }
    for (const [what, answer] of answers) expect(answer.status, what).toBe(400);
    expect(served.stderr()).not.toMatch(/out of range|unhandled error/i);
  }, 60_000);

  it('a preferences link dies when its reader leaves and comes back; the new mail’s link works', async () => {
    const reader = 'grace@example.org';
    const count = smtp.received.length;
    expect((await subscribe(reader, '127.0.0.50')).status).toBe(200);
    const confirmation = await smtp.next(count + 1);
    const firstPreferences = new URL(linkIn(confirmation, `${BASE}preferences?token=`)).search;
    const confirmToken = new URL(linkIn(confirmation, `${BASE}confirm?token=`)).searchParams.get('token')!;
    const confirmed = await httpRequest(url('confirm'), {
      method: 'POST',
      headers: FORM_POST,
      body: new URLSearchParams({ token: confirmToken }).toString(),
    });
    expect(confirmed.status).toBe(200);
    const welcome = await smtp.next(count + 2);
    const leave = new URL(linkIn(welcome, `${BASE}unsubscribe?token=`)).searchParams.get('token')!;
    expect((await httpRequest(url(`preferences${firstPreferences}`))).status).toBe(200);
    const left = await httpRequest(url('unsubscribe'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: leave }).toString(),
    });
    expect(left.status).toBe(200);
    // Anyone subscribes the address again: a new subscription, a new confirmation mail.
    expect((await subscribe(reader, '127.0.0.51')).status).toBe(200);
    const again = await smtp.next(count + 3);
    const secondPreferences = new URL(linkIn(again, `${BASE}preferences?token=`)).search;
    expect((await httpRequest(url(`preferences${firstPreferences}`))).status).toBe(400);
    expect((await httpRequest(url(`preferences${secondPreferences}`))).status).toBe(200);
    await outboxDrained();
  }, 60_000);

  it('/metrics and /operator/stats answer the token only: loopback, forwarded or not, without it gets nothing', async () => {
    for (const path of ['metrics', 'operator/stats']) {
      expect((await httpRequest(url(path), { headers: OPERATOR_HEADERS })).status, path).not.toBe(401);
      const strangers: Record<string, string>[] = [
        {},
        { authorization: 'Bearer not-the-token' },
        { 'x-real-ip': '203.0.113.9' },
        { 'x-forwarded-for': '' },
        { forwarded: 'for=203.0.113.9' },
      ];
      for (const headers of strangers) {
        const answer = await httpRequest(url(path), { headers });
        expect(answer.status, `${path} ${JSON.stringify(headers)}`).toBe(401);
        expect(answer.text).not.toContain('digest_subscribers');
      }
    }
  });

  it("the operator's own loopback listener answers both without a token, and serves nothing else", async () => {
    const at = /Operator endpoints \(\/metrics, \/operator\/stats\) at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(
      served.stderr(),
    )?.[1];
    expect(at).toBeDefined();
    expect(at).not.toBe(served.url);
    const metrics = await httpRequest(new URL('metrics', at));
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('digest_subscribers');
    expect((await httpRequest(new URL('operator/stats', at))).status).not.toBe(401);
    expect((await httpRequest(new URL('2026-05-04/', at))).status).toBe(404);
    expect((await httpRequest(new URL('healthz', at))).status).toBe(404);
  });

  it('a NUL at any depth of a JSON body is a 400, also thousands of levels down', async () => {
    const deep = (levels: number) => `${'['.repeat(levels)}"a\\u0000b"${']'.repeat(levels)}`;
    const call = (args: string) =>
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_items","arguments":{"q":"x","deep":${args}}}}`;
    // The subscribe form's 8 KB cap holds 2,000 levels; MCP's 256 KB many more.
    for (const levels of [70, 2_000, 5_000]) {
      const mcp = await httpRequest(url('mcp'), {
        method: 'POST',
        headers: MCP_POST,
        body: call(deep(levels)),
        from: '127.0.0.60',
      });
      expect(mcp.status, `MCP, ${levels} levels`).toBe(400);
      if (levels > 2_000) continue;
      const form = await httpRequest(url('subscribe'), {
        method: 'POST',
        headers: JSON_POST,
        body: `{"email":"deep@example.org","topics":${deep(levels)}}`,
        from: '127.0.0.61',
      });
      expect(form.status, `subscribe, ${levels} levels`).toBe(400);
    }
    expect((await httpRequest(url('healthz'))).status).toBe(200);
  }, 60_000);
});
