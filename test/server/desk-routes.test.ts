// The desk's rate limit on changes, on the real app: past the budget a change is refused with 429 and a page that
// says when to retry, and changes nothing; reading the desk stays allowed; one client address shares one budget.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createDeskHarness,
  type DeskHarness,
  deskState,
  SECOND_EDITOR,
  signIn,
  WEEK,
} from '../desk/_desk.js';
import { useTestStore } from '../support/database.js';

const WRITES = 3;

describe('desk writes are rate-limited', () => {
  const store = useTestStore();
  let harness: DeskHarness;

  beforeEach(async () => {
    harness = await createDeskHarness(store(), { config: { server: { deskWritesPerMinute: WRITES } } });
  });
  afterEach(async () => harness.close());

  const snapshot = () => deskState(store());

  it('answers the change past the budget with 429 and a retry time, changes nothing, and still shows pages', async () => {
    const client = await signIn(harness.app);
    for (const count of ['2', '3', '4']) {
      expect((await client.post(`/admin/week/${WEEK}/count`, { count })).status).toBe(303);
    }
    const before = await snapshot();
    const refused = await client.post(`/admin/week/${WEEK}/count`, { count: '2' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const page = await refused.text();
    expect(page).toContain('Too many changes');
    expect(page).toMatch(/Try again in \d+ s\./);
    expect(refused.headers.get('content-type')).toContain('text/html');
    expect(await snapshot()).toBe(before);

    for (const path of [`/admin/week/${WEEK}`, `/admin/week/${WEEK}/approve`, '/admin/audit']) {
      expect((await client.get(path)).status, path).toBe(200);
    }
    // Signing out is never refused.
    expect((await client.post('/admin/logout', {})).status).toBe(303);
  });

  it('shares one budget between the sessions of one client address', async () => {
    const first = await signIn(harness.app);
    for (let write = 0; write < WRITES; write += 1) {
      expect((await first.post(`/admin/week/${WEEK}/count`, { count: '3' })).status).toBe(303);
    }
    const second = await signIn(harness.app, SECOND_EDITOR);
    const before = await snapshot();
    expect((await second.post(`/admin/week/${WEEK}/count`, { count: '2' })).status).toBe(429);
    expect(await snapshot()).toBe(before);
  });
});
