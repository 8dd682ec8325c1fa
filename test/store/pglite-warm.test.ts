// PGlite's start-up work begun before a command's modules load (store/pglite-warm.ts): the compiled module and the
// bundle it hands over start a working PGlite, the bundle goes to one PGlite only, and the module stays for more
// (the CLI's bundled PGlite cannot find its own files, so every open gets both).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { takeWarmStart, warmPglite } from '../../src/store/pglite-warm.js';
import { seedPgliteDataDir } from '../support/database.js';

describe('warmPglite', () => {
  it('hands PGlite its compiled module and bundle, then the same module and a bundle read anew', async () => {
    warmPglite({ optimizeWasm: false });
    // A second call while the first runs starts nothing new.
    warmPglite({ optimizeWasm: false });
    const first = await takeWarmStart({ optimizeWasm: false });
    expect(first.pgliteWasmModule).toBeInstanceOf(WebAssembly.Module);
    expect(first.fsBundle).toBeInstanceOf(Blob);
    expect(first.fsBundle.size).toBeGreaterThan(1_000_000);

    const dir = await mkdtemp(join(tmpdir(), 'digest-warm-'));
    try {
      await seedPgliteDataDir(join(dir, 'data'));
      const pglite = await PGlite.create({ dataDir: join(dir, 'data'), ...first });
      const { rows } = await pglite.query<{ answer: number }>('select 6 * 7 as answer');
      await pglite.close();
      expect(rows).toEqual([{ answer: 42 }]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    const later = await takeWarmStart({ optimizeWasm: false });
    expect(later.pgliteWasmModule).toBe(first.pgliteWasmModule);
    expect(later.fsBundle).not.toBe(first.fsBundle);
    expect(later.fsBundle.size).toBe(first.fsBundle.size);
  });
});
