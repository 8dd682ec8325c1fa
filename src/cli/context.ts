// What every command gets from the CLI entry: output streams, the environment, and the stop signal.
export interface CliContext {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Aborted on SIGINT/SIGTERM: work in flight stops, the store is closed and its lock released. */
  signal?: AbortSignal;
  /** Set by a command that finished but wants a non-zero status (e.g. 3: edition built with degraded items). */
  exitCode?: number;
}
