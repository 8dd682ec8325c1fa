// The dead-export check of `npm run lint` for lazily loaded modules (scripts/check-lazy-exports.mjs), which knip
// counts as wholly used: it names an export of a module loaded through import() that nothing reads, and passes
// exports read after the import, destructured from it, through a loader, or imported statically elsewhere.
import { describe, expect, it } from 'vitest';
import { lintScript } from '../support/lint-script.js';

const check = lintScript('check-lazy-exports.mjs');

const publicEntry = [
  `export const build = async () => (await import('./build.js')).build();`,
  `export async function list() { const { list, ListKind } = await import('./list.js'); return list(ListKind); }`,
  `const load = () => import('./desk.js');`,
  `export const desk = async () => (await load()).createDesk();`,
  `export const count = async () => { const calls = await import('./calls.js'); return calls.count(); };`,
].join('\n');

const lazyModules = {
  'index.ts': publicEntry,
  'build.ts': `export function build() { return 1; }\n`,
  'list.ts': `export const ListKind = 'week';\nexport function list(kind: string) { return kind; }\n`,
  'desk.ts': `export function createDesk() { return {}; }\n`,
  'calls.ts': `export function count() { return 2; }\n`,
};

describe('scripts/check-lazy-exports.mjs', () => {
  it('names an export of a lazily loaded module that nothing reads, and exits 1', () => {
    const { status, out } = check({
      ...lazyModules,
      'build.ts': `export function build() { return 1; }\nexport function rebuild() { return 2; }\n`,
    });
    expect(status).toBe(1);
    expect(out).toMatch(
      /^src\/build\.ts:2 rebuild is exported but used nowhere \(the module loads lazily: src\/index\.ts:1\)$/m,
    );
    expect(out).not.toMatch(/ build is exported/);
    expect(out).toContain('1 dead export(s)');
  });

  it('passes exports read after the import, destructured, through a loader, from a namespace, or imported statically', () => {
    const { status, out } = check({
      ...lazyModules,
      'build.ts': `export function build() { return 1; }\nexport function rebuild() { return 2; }\n`,
      'eval.ts': `import { rebuild } from './build.js';\nexport const again = rebuild;\n`,
    });
    expect(status, out).toBe(0);
    expect(out).toContain('lazy exports: 4 of 4 lazily loaded modules followed, every export used');
  });
});
