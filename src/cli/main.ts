// The CLI entry: the only place that decides exit codes (0 clean, 1 nothing built, 2 bad input, 3 needs a look,
// 130/143 stopped by SIGINT/SIGTERM).
import { Command, CommanderError, Help } from 'commander';
import { withDotEnv } from '../config/dotenv.js';
import {
  BuildError,
  ConfigError,
  NotFoundError,
  NotReadyError,
  PublishedEditionError,
  errorMessage as rawMessage,
} from '../core/errors.js';
import { redactUrls } from '../core/urls.js';
import { PROGRAM_VERSION } from '../core/version.js';
import {
  COMMANDS,
  type CommandLine,
  type CommandModule,
  commandModuleOf,
  type RegisterCommand,
} from './commands/index.js';
import type { CliContext } from './context.js';
import { EXIT, exitStatusHelp } from './exit-status.js';

const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

/** The command module a run loaded, and its `register`. */
interface LoadedCommand {
  module: CommandModule;
  register: RegisterCommand;
}

/**
 * The program: the loaded command registered by its module, every other one as its line of `digest --help` (so the
 * list, "unknown command" and its suggestions are the same whichever command runs).
 */
export function createProgram(context: CliContext, loaded?: LoadedCommand): Command {
  const program = new Command()
    .name('digest')
    .description(
      'LLM News Digest: a week of AI papers and posts, as one short edition.\n\n' +
        'Quick start:\n' +
        '  digest init             set up a newsletter here: digest.config.json and .env\n' +
        '  digest demo             build the bundled sample week (offline) into ./data\n' +
        '  digest build            build the latest Monday edition\n' +
        '  digest list             ranked candidates of the week\n' +
        '  digest publish          site, feeds, email and Markdown\n\n' +
        'Config: ./digest.config.ts or .json, or --config FILE.\n' +
        'Store: PGlite in ./data (--data-dir), or DATABASE_URL.\n' +
        'Exit status: 0 done, 1 nothing done (the message says why), 2 bad input, 3 done but needs a look\n' +
        "(each command's --help says what they mean for it; docs/exit-status.md).\n" +
        'Run "digest <command> --help" for its options.',
    )
    .version(PROGRAM_VERSION)
    .showHelpAfterError('(run "digest --help" for usage)')
    .configureOutput({
      writeOut: (text) => context.stdout.write(text),
      writeErr: (text) => context.stderr.write(text),
    })
    .exitOverride();
  const terms = new Map<Command, string>();
  for (const module of COMMANDS) {
    if (module === loaded?.module) loaded.register(program, context);
    else for (const line of module.commands) terms.set(listed(program, line), line.term);
  }
  program.configureHelp({
    subcommandTerm: (command) => terms.get(command) ?? new Help().subcommandTerm(command),
  });
  for (const command of program.commands) {
    command.exitOverride().showHelpAfterError(`(run "digest ${command.name()} --help" for usage)`);
    command.addHelpText('after', exitStatusHelp(command.name()));
  }
  return program;
}

function listed(program: Command, line: CommandLine): Command {
  return program.command(line.name, { hidden: line.hidden ?? false }).description(line.description);
}

export async function runCli(argv: string[], outside: CliContext): Promise<number> {
  // ./.env (digest init writes DIGEST_SECRET there) lies beneath the real environment, which always wins.
  const context: CliContext = { ...outside, env: withDotEnv(outside.cwd, outside.env), exitCode: 0 };
  try {
    const wanted = commandModuleOf(argv);
    // Before the command's modules load, so PGlite's files are read and compiled meanwhile (compose/index.ts).
    if (wanted && !wanted.withoutStore && !asksForHelp(argv))
      (await import('../compose/index.js')).warmStore(context.env);
    const program = createProgram(
      context,
      wanted && { module: wanted, register: (await wanted.load()).register },
    );
    if (argv.length === 0) {
      program.outputHelp({ error: true });
      return EXIT.badInput;
    }
    await program.parseAsync(argv, { from: 'user' });
    return context.exitCode ?? 0;
  } catch (error) {
    return reportError(error, context);
  }
}

function asksForHelp(argv: string[]): boolean {
  return argv[0] === 'help' || argv.includes('--help') || argv.includes('-h');
}

function reportError(error: unknown, context: CliContext): number {
  const interrupted = context.signal?.aborted ? stopSignal(context.signal) : null;
  if (interrupted) {
    context.stderr.write(`Stopped by ${interrupted}: nothing was half-saved, and the store is closed.\n`);
    return SIGNAL_EXIT[interrupted] ?? 130;
  }
  // Commander has already printed its message (unknown option, bad value, missing argument…).
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.badInput;
  // A published or mailed edition: "already published" (exit 0, nothing written) or refused with the command to use.
  if (error instanceof PublishedEditionError && error.unchanged) {
    context.stderr.write(`${errorMessage(error)}\n`);
    return EXIT.ok;
  }
  if (error instanceof PublishedEditionError) {
    context.stderr.write(`refused: ${errorMessage(error)}\n`);
    return EXIT.badInput;
  }
  if (error instanceof ConfigError || error instanceof NotFoundError || isBadInput(error)) {
    context.stderr.write(`error: ${errorMessage(error)}\n`);
    return EXIT.badInput;
  }
  if (error instanceof BuildError || error instanceof NotReadyError) {
    context.stderr.write(`error: ${errorMessage(error)}\n`);
    return EXIT.nothingDone;
  }
  context.stderr.write(`error: ${errorMessage(error)}\n`);
  if (context.env.DIGEST_DEBUG && error instanceof Error)
    context.stderr.write(`${redactUrls(error.stack ?? '')}\n`);
  else context.stderr.write('(set DIGEST_DEBUG=1 for a stack trace)\n');
  return EXIT.nothingDone;
}

/** What the user reads of an error: URLs without credentials or secret parameters, long ones shortened. */
function errorMessage(error: unknown): string {
  return redactUrls(rawMessage(error));
}

/** Errors whose cause is what the user gave us: a URL we refuse to fetch, a credential the provider rejected. */
function isBadInput(error: unknown): boolean {
  return error instanceof Error && ['BlockedUrlError', 'CredentialError'].includes(error.name);
}

function stopSignal(signal: AbortSignal): string | null {
  const reason: unknown = signal.reason;
  return reason instanceof InterruptError ? reason.signal : 'SIGINT';
}

/** The abort reason when the user stops the run. */
export class InterruptError extends Error {
  override name = 'AbortError';
  constructor(readonly signal: NodeJS.Signals) {
    super(`stopped by ${signal}`);
  }
}

/** Entry for bin/digest.js: runs with the real process, stops cleanly on SIGINT/SIGTERM, flushes, then exits. */
export async function main(): Promise<void> {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    const code = SIGNAL_EXIT[signal] ?? 130;
    if (controller.signal.aborted) {
      process.stderr.write(`\n${signal} again: exiting at once.\n`);
      process.exit(code);
    }
    process.stderr.write(
      `\n${signal}: stopping — aborting work in flight and closing the store (${signal === 'SIGINT' ? 'Ctrl-C again' : 'a second signal'} exits at once)…\n`,
    );
    controller.abort(new InterruptError(signal));
    // Whatever still runs after this is not worth a hung terminal; the lock of a dead process is taken over.
    setTimeout(() => {
      process.stderr.write('Still busy 10 s after the signal; exiting.\n');
      process.exit(code);
    }, 10_000).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const code = await runCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
    env: process.env,
    signal: controller.signal,
  });
  process.exitCode = code;
  // Exit once output is flushed, even if a keep-alive socket would hold the event loop open.
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}
