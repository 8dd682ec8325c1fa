// The size rules of `npm run lint` (scripts/check-shape.mjs) catch what they promise: a long function without a
// written reason, an options type over 8 fields, a function or port method with a fourth positional parameter; a
// `// long:` or `// positional:` reason, a short function and named arguments pass.
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

  it('names a function, an arrow, a method and a port member with four positional parameters', () => {
    const { status, out } = check({
      'wide.ts':
        `export function reserve(edition: string, worker: string, limit: number, lease: number) { return limit + lease; }\n` +
        `export const arrow = (a: number, b: number, c: number, d: number) => a + b + c + d;\n` +
        `export class Box { put(a: number, b: number, c: number, d: number) { return a + b + c + d; } }\n` +
        `export interface SendPort {\n  reserveBatch(edition: string, worker: string, limit: number, lease: number): void;\n` +
        `  claim: (worker: string, limit: number, lease: number, dead: string[]) => void;\n}\n`,
    });
    expect(status).toBe(1);
    expect(out).toMatch(/src\/wide\.ts:1 function reserve takes 4 positional parameters \(at most 3\)/);
    expect(out).toMatch(/src\/wide\.ts:2 function arrow takes 4 positional parameters/);
    expect(out).toMatch(/src\/wide\.ts:3 function put takes 4 positional parameters/);
    expect(out).toMatch(/src\/wide\.ts:5 function reserveBatch takes 4 positional parameters/);
    expect(out).toMatch(/src\/wide\.ts:6 function claim takes 4 positional parameters/);
  });

  it('passes three positional parameters, named arguments, a bound store db, and four with a written reason', () => {
    const { status, out } = check({
      'named.ts':
        `export function three(a: number, b: number, c: number) { return a + b + c; }\n` +
        `export function reserve({ edition, limit }: { edition: string; worker: string; limit: number; lease: number }) { return edition + limit; }\n` +
        `export function claim(db: object, worker: string, limit: number, lease: number) { return [db, worker, limit + lease]; }\n` +
        `// positional: String.prototype.replace hands its replacer these four\n` +
        `export const swap = (word: string, group: string, offset: number, whole: string) => word + group + offset + whole;\n`,
    });
    expect(status, out).toBe(0);
    expect(out).toContain('no function over 3 positional parameters');
  });
});
