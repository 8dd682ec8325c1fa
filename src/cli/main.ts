// The CLI entry: the only place that decides exit codes.
import { Command, CommanderError } from 'commander';
import { BuildError, ConfigError, errorMessage } from '../core/errors.js';
import { COMMANDS } from './commands/index.js';
import type { CliContext } from './context.js';

export function createProgram(context: CliContext): Command {
  const program = new Command()
    .name('digest')
    .description(
      'LLM News Digest: a week of AI papers and posts, as one short edition.\n\n' +
        'Quick start:\n' +
        '  digest demo             build the bundled sample week (offline)\n' +
        '  digest build            build the latest Monday edition\n' +
        '  digest list             ranked candidates of the week\n' +
        '  digest publish          site, feeds, email and Markdown\n\n' +
        'Config: ./digest.config.ts or .json, or --config FILE.\n' +
        'Store: PGlite in ./data (--data-dir), or DATABASE_URL.\n' +
        'Run "digest <command> --help" for its options.',
    )
    .version('0.1.0')
    .showHelpAfterError('(run "digest --help" for usage)')
    .configureOutput({
      writeOut: (text) => context.stdout.write(text),
      writeErr: (text) => context.stderr.write(text),
    })
    .exitOverride();
  for (const register of COMMANDS) register(program, context);
  return program;
}

export async function runCli(argv: string[], outside: CliContext): Promise<number> {
  const context: CliContext = { ...outside, exitCode: 0 };
  const program = createProgram(context);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return context.exitCode ?? 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof ConfigError) {
      context.stderr.write(`error: ${error.message}\n`);
      return 2;
    }
    if (error instanceof BuildError) {
      context.stderr.write(`error: ${error.message}\n`);
      return 1;
    }
    context.stderr.write(`error: ${errorMessage(error)}\n`);
    if (context.env.DIGEST_DEBUG && error instanceof Error) context.stderr.write(`${error.stack}\n`);
    else context.stderr.write('(set DIGEST_DEBUG=1 for a stack trace)\n');
    return 1;
  }
}

/** Entry for bin/digest.js: runs with the real process, flushes output, then exits. */
export async function main(): Promise<void> {
  const code = await runCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
    env: process.env,
  });
  process.exitCode = code;
  // Exit once output is flushed, even if a keep-alive socket would hold the event loop open.
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}
