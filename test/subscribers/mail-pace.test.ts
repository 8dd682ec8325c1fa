import { describe, expect, it } from 'vitest';
import { claimSize, createMailPace } from '../../src/subscribers/mail-pace.js';

describe('the outbox pace', () => {
  it('spaces mails evenly at the rate, and a late turn is not made up by a burst', () => {
    let now = 1000;
    const pace = createMailPace(20, () => now);
    expect(pace.due()).toBe(0);
    expect([pace.take(), pace.take(), pace.take()]).toEqual([0, 50, 100]);
    expect(pace.due()).toBe(150);
    // Nothing was sent for a while: the next mail goes at once, the one after it a spacing later, not at once too.
    now = 5000;
    expect([pace.take(), pace.take()]).toEqual([0, 50]);
  });

  it('claims about a second of mails, at least one, at most the batch', () => {
    expect(claimSize(0.1, 20)).toBe(1);
    expect(claimSize(5.5, 20)).toBe(5);
    expect(claimSize(1000, 20)).toBe(20);
  });
});
