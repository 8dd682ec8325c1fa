// A worker's per-mail moves gathered into one call: calls of one turn go together, calls made while a call runs
// wait for it and go together in the next, each gets its own answer, and a failed call fails each of its callers.
import { describe, expect, it } from 'vitest';
import { gathered } from '../../src/mail/send-moves.js';

describe('gathered', () => {
  it('answers each caller from one call per group, the next group after the call in flight', async () => {
    const groups: number[][] = [];
    let release: () => void = () => {};
    const first = new Promise<void>((resolve) => {
      release = resolve;
    });
    const double = gathered(async (inputs: number[]) => {
      groups.push(inputs);
      if (groups.length === 1) await first;
      return inputs.map((input) => input * 2);
    });
    const early = [double(1), double(2), double(3)];
    await new Promise((resolve) => setImmediate(resolve));
    // The first call is in flight: these wait, and go as one.
    const late = [double(4), double(5)];
    release();
    expect(await Promise.all([...early, ...late])).toEqual([2, 4, 6, 8, 10]);
    expect(groups).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('fails every caller of a failed call, and the next group still runs', async () => {
    let calls = 0;
    const echo = gathered(async (inputs: string[]) => {
      calls += 1;
      if (calls === 1) throw new Error('the database went away');
      return inputs;
    });
    const failed = [echo('a'), echo('b')].map((call) => call.catch((error: Error) => error.message));
    expect(await Promise.all(failed)).toEqual(['the database went away', 'the database went away']);
    expect(await echo('c')).toBe('c');
  });
});
