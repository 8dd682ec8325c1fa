// Runs one of the lint scripts of scripts/ on a throwaway project of the given src/ files, as `npm run lint` does.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll } from 'vitest';

/** A checker of src/ file sets with `scripts/<script>`: its exit status and what it printed. */
export function lintScript(
  script: string,
): (files: Record<string, string>) => { status: number | null; out: string } {
  const path = resolve(import.meta.dirname, '../../scripts', script);
  const dir = mkdtempSync(join(tmpdir(), 'digest-lint-script-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return (files) => {
    const root = mkdtempSync(join(dir, 'case-'));
    mkdirSync(join(root, 'src'));
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, 'src', name)), { recursive: true });
      writeFileSync(join(root, 'src', name), text);
    }
    const run = spawnSync(process.execPath, [path], { cwd: root, encoding: 'utf8' });
    return { status: run.status, out: run.stdout };
  };
}
