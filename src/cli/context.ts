// What every command gets from the CLI entry: output streams, the environment, the clock and the stop signal.
import type { Clock } from '../core/clock.js';

export interface CliContext {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The wall clock ("this week" when --week is left out); the system clock unless a test fixes it. */
  clock?: Clock;
  /** Aborted on SIGINT/SIGTERM: work in flight stops, the store is closed and its lock released. */
  signal?: AbortSignal;
  /** Set by a command that finished but wants a non-zero status (e.g. 3: edition built with degraded items). */
  exitCode?: number;
}
