import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { type CommonOptions, withCommandDigest, withStoreOptions } from '../options.js';
import { declareCommand } from './declarations.js';

export function register(program: Command, context: CliContext): void {
  const command = declareCommand(program, 'mcp');
  withStoreOptions(command).action(async (options: CommonOptions) => {
    // stdout is the protocol's channel: every log line goes to stderr (the CLI logger's default).
    await withCommandDigest({
      options,
      context,
      fn: (digest) =>
        digest.serveMcp({
          stdin: process.stdin,
          stdout: context.stdout,
          ...(context.signal ? { signal: context.signal } : {}),
        }),
    });
  });
}
