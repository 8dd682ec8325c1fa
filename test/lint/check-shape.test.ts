// The size rules of `npm run lint` (scripts/check-shape.mjs) catch what they promise: a long function without a
// written reason, and an options type over 8 fields; a `// long:` reason and a short function pass.
import { describe, expect, it } from 'vitest';
import { lintScript } from '../support/lint-script.js';

const check = lintScript('check-shape.mjs');

const body = (lines: number) => Array.from({ length: lines }, (_, i) => `  total += ${i};`).join('\n');

describe('scripts/check-shape.mjs', () => {
  it('names a function over 80 lines and an options type over 8 fields, and exits 1', () => {
    const fields = Array.from({ length: 9 }, (_, i) => `  field${i}: string;`).join('\n');
    const { status, out } = check({
      'long.ts': `export function tooLong(): number {\n  let total = 0;\n${body(85)}\n  return total;\n}\n`,
      'wide.ts': `export interface WideOptions {\n${fields}\n}\n`,
    });
    expect(status).toBe(1);
    expect(out).toMatch(/src\/long\.ts:1 function tooLong is 89 lines/);
    expect(out).toMatch(/src\/wide\.ts:1 WideOptions has 9 fields/);
  });

  it('passes a short function, a narrow type, and a long one with its reason written above', () => {
    const { status, out } = check({
      'fine.ts':
        `export interface NarrowOptions { a: string; b: number }\n` +
        `export const short = () => 1;\n` +
        `// long: one table of cases reads best whole\n` +
        `export function table(): number {\n  let total = 0;\n${body(90)}\n  return total;\n}\n`,
    });
    expect(status, out).toBe(0);
    expect(out).toContain('no function over 80 lines');
  });
});
