import { describe, expect, it } from 'vitest';
import { batchedLogLines } from '../../src/server/log-lines.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('request log lines', () => {
  it('writes the lines of one turn together, in order, one line each', async () => {
    const writes: string[] = [];
    const lines = batchedLogLines((text) => writes.push(text));
    lines.log('{"n":1}');
    lines.log('{"n":2}');
    expect(writes).toEqual([]);
    await tick();
    expect(writes).toEqual(['{"n":1}\n{"n":2}\n']);
    lines.log('{"n":3}');
    await tick();
    expect(writes).toEqual(['{"n":1}\n{"n":2}\n', '{"n":3}\n']);
  });

  it('writes at once past the size bound, and flush() writes what waits', async () => {
    const writes: string[] = [];
    const lines = batchedLogLines((text) => writes.push(text), 20);
    lines.log('a'.repeat(12));
    expect(writes).toHaveLength(0);
    lines.log('b'.repeat(12));
    expect(writes).toEqual([`${'a'.repeat(12)}\n${'b'.repeat(12)}\n`]);
    lines.log('c');
    lines.flush();
    expect(writes.at(-1)).toBe('c\n');
    lines.flush();
    await tick();
    expect(writes).toHaveLength(2);
  });
});
