// What every command gets from the CLI entry: output streams and a way to resolve shared options.
export interface CliContext {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Set by a command that finished but wants a non-zero status (e.g. 3: edition built with degraded items). */
  exitCode?: number;
}
