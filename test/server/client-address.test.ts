// Who is asking, as the rate limits and the click counter see it: a forwarded address only when it is one (else the
// socket's), written one way, and an IPv6 client by its /64.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { addressGroup, clientAddress, clientGroup } from '../../src/server/client-address.js';

async function asked(
  headers: Record<string, string>,
  trustProxy = true,
): Promise<{ address: string; group: string }> {
  const app = new Hono();
  app.get('/', (c) => c.json({ address: clientAddress(c, trustProxy), group: clientGroup(c, trustProxy) }));
  const answer = await app.request('/', { headers });
  return (await answer.json()) as { address: string; group: string };
}

describe('client address', () => {
  it('takes the right-most forwarded entry only when it is an IP address', async () => {
    expect(await asked({ 'x-forwarded-for': '198.51.100.1, 203.0.113.9' })).toEqual({
      address: '203.0.113.9',
      group: '203.0.113.9',
    });
    expect((await asked({ 'x-forwarded-for': '::ffff:203.0.113.9' })).address).toBe('203.0.113.9');
    // Not addresses: the socket's (app.request() has none: "unknown"), never the text.
    for (const value of [
      'x'.repeat(12_000),
      '203.0.113.9, not-an-address',
      '999.1.1.1',
      '203.0.113.9:80',
      '',
    ]) {
      const seen = await asked({ 'x-forwarded-for': value });
      expect(seen, value.slice(0, 40)).toEqual({ address: 'unknown', group: 'unknown' });
    }
    expect((await asked({ 'x-forwarded-for': '203.0.113.9' }, false)).address).toBe('unknown');
  });

  it('groups an IPv6 client by its /64, an IPv4 one by its address', async () => {
    const group = (await asked({ 'x-forwarded-for': '2001:db8:1:2:aaaa:bbbb:cccc:dddd' })).group;
    expect(group).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:db8:1:2::ffff')).toBe(group);
    expect(addressGroup('2001:db8:1:3::1')).not.toBe(group);
    expect(addressGroup('192.0.2.7')).toBe('192.0.2.7');
  });
});
