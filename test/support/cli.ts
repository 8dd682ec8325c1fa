// Runs the real CLI in-process (same code path as bin/digest.js) and captures its output.
import { Writable } from 'node:stream';
import { runCli } from '../../src/cli/main.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

export async function runDigest(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<CliRun> {
  const stdout = new Capture();
  const stderr = new Capture();
  const env = { ...process.env, ...options.env };
  // A developer's own DATABASE_URL must never reach tests; a test that wants PostgreSQL passes one.
  if (!options.env?.DATABASE_URL) delete env.DATABASE_URL;
  const code = await runCli(args, { stdout, stderr, cwd: options.cwd, env });
  return { code, stdout: stdout.text, stderr: stderr.text };
}
