// "Send a test to me": the week's mail (the draft's or the published edition's) to the signed-in editor, through
// the subscribers capability's test send ("[Test]" subject, links that count nothing, no send-log row). A mail
// leaves the building each time, so tests are limited per editor beyond the desk's write limit, and audited.

import { errorMessage } from '../core/errors.js';
import { createRateLimiter, type RateLimiter } from '../core/rate-limiter.js';
import { type DeskActionContext, type DeskOutcome, refused } from './outcome.js';
import type { AuditDeps, RunsDeps } from './ports.js';

/** Three tests at once per editor, then one every two minutes: enough to check a fix, too few to spam an inbox. */
export const TEST_MAILS = { capacity: 3, refillMs: 120_000 } as const;

export function testMailLimiter(now?: () => number): RateLimiter {
  return createRateLimiter({ ...TEST_MAILS, ...(now ? { now } : {}) });
}

export async function sendTestOnDesk(
  deps: AuditDeps & RunsDeps<'sendTest'> & { testMails: RateLimiter },
  context: DeskActionContext,
): Promise<DeskOutcome> {
  const allowed = deps.testMails.take(context.editor);
  if (!allowed.allowed) {
    const seconds = Math.ceil(allowed.retryAfterMs / 1000);
    return refused(429, 'Too many tests', `Test mails are limited: try again in ${seconds} s.`);
  }
  try {
    const sent = await deps.runs.sendTest({ week: context.week, to: context.editor });
    await deps.store.desk.recordAudit({
      editor: context.editor,
      action: 'send-test',
      week: context.week,
      itemKey: null,
      detail: { to: sent.to, response: sent.response },
    });
    return { ok: true, done: 'tested' };
  } catch (error) {
    return refused(502, 'Test not sent', `The test mail was not sent: ${errorMessage(error)}`);
  }
}
