// PGlite's WebAssembly stays on V8's baseline tier (store/pglite-options.ts): the flags, set at run time as the CLI
// sets them, keep a hot function on Liftoff on this Node. Newer V8 ignores `--liftoff-only` alone when set at run
// time, so the check runs a fresh Node, sets the flags as the program does, heats a loop and asks V8 (natives
// syntax) which tier runs it; without the flags the same loop reaches TurboFan, so the check can fail.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BASELINE_WASM_FLAGS } from '../../src/store/pglite-options.js';

const run = promisify(execFile);

// (func (param i32) (result i32) (local i32) loop: sum += n; n -= 1; br_if n) — hot enough to tier up.
const MODULE = [
  0, 97, 115, 109, 1, 0, 0, 0, 1, 6, 1, 96, 1, 127, 1, 127, 3, 2, 1, 0, 7, 5, 1, 1, 102, 0, 0, 10, 27, 1, 25,
  1, 1, 127, 3, 64, 32, 1, 32, 0, 106, 33, 1, 32, 0, 65, 1, 107, 34, 0, 13, 0, 11, 32, 1, 11,
];

async function tierAfterHeating(flags: string): Promise<string> {
  const script = `
    if (process.env.FLAGS) require('node:v8').setFlagsFromString(process.env.FLAGS);
    WebAssembly.instantiate(new Uint8Array(${JSON.stringify(MODULE)})).then(async ({ instance }) => {
      const f = instance.exports.f;
      // Rounds of heat with pauses for a background compile, until TurboFan runs it or ten have passed.
      for (let round = 0; round < 10 && !%IsTurboFanFunction(f); round++) {
        for (let i = 0; i < 1000; i++) f(100000);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      process.stdout.write(%IsTurboFanFunction(f) ? 'turbofan' : %IsLiftoffFunction(f) ? 'liftoff' : 'other');
    });`;
  const { stdout } = await run(process.execPath, ['--allow-natives-syntax', '-e', script], {
    env: { ...process.env, FLAGS: flags },
  });
  return stdout;
}

describe('PGlite on baseline WebAssembly', () => {
  it(`keeps a hot function on Liftoff with the program's flags on Node ${process.versions.node}`, async () => {
    expect(await tierAfterHeating(BASELINE_WASM_FLAGS)).toBe('liftoff');
    expect(await tierAfterHeating('')).toBe('turbofan');
  }, 30_000);
});
