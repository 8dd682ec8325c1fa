// Flag parsing shared by commands: values are checked while parsing, so a bad one exits 2 before any work.
import { type Command, InvalidArgumentError } from 'commander';
import type { OpenDigest, OpenDigestOptions } from '../compose/index.js';
import { loadConfig } from '../config/index.js';
import { checkDataDirExists, checkWritableFolder, resolveDataDir, resolveWeek } from '../config/inputs.js';
import { systemClock } from '../core/clock.js';
import { isIsoDay } from '../core/dates.js';
import { declareCommand } from './commands/declarations.js';
import type { CliContext } from './context.js';
import { createCliLogger } from './logger.js';

export interface CommonOptions {
  config?: string;
  dataDir?: string;
  verbose?: boolean;
}

/** The flags of a command about one week's edition. */
export interface WeekOptions extends CommonOptions {
  week?: string;
}

/** The flags of the commands that call the writing model (build, eval). */
export interface ModelCallOptions {
  check: boolean;
  refresh?: boolean;
  maxCost?: number;
}

export function parseWeek(value: string): string {
  if (!isIsoDay(value)) throw new InvalidArgumentError('expected a date like 2026-05-04');
  return value;
}

export function parseUsd(value: string): number {
  const amount = Number(value);
  if (value.trim() === '' || !Number.isFinite(amount) || amount < 0)
    throw new InvalidArgumentError('expected an amount in USD, e.g. 0.50');
  return amount;
}

export function parseCount(value: string): number {
  const count = Number(value);
  if (!/^\d+$/.test(value.trim()) || count < 1 || count > 100_000)
    throw new InvalidArgumentError('expected a whole number from 1 to 100000');
  return count;
}

/** The options every command that opens the store takes. */
export function withStoreOptions(command: Command): Command {
  return command
    .option('--config <file>', 'config file (default: digest.config.ts/.json in this folder)')
    .option('--data-dir <dir>', 'PGlite data folder (default ./data, or DIGEST_DATA_DIR)')
    .option('--verbose', 'more log lines');
}

function weekOption(command: Command, help = 'the most recent Monday'): Command {
  return command.option('--week <date>', `edition date YYYY-MM-DD (default: ${help})`, parseWeek);
}

export function digestOptions(options: CommonOptions, context: CliContext): OpenDigestOptions {
  return {
    cwd: context.cwd,
    env: context.env,
    log: createCliLogger(context.stderr, options.verbose),
    ...(options.config ? { configFile: options.config } : {}),
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(context.signal ? { signal: context.signal } : {}),
  };
}

/** Checks the data folder (unless DATABASE_URL is used) before anything opens it. */
export async function checkDataDir(options: CommonOptions, context: CliContext): Promise<void> {
  if (context.env.DATABASE_URL) return;
  await checkWritableFolder(resolveDataDir(digestOptions(options, context)), '--data-dir', context.cwd);
}

/** The clock a command reads: the context's, else the system clock. */
export function nowOf(context: CliContext): Date {
  return (context.clock ?? systemClock).now();
}

/** `--week`, checked, or the most recent Monday by the context's clock. */
function commandWeek(options: { week?: string }, context: CliContext): string {
  return resolveWeek(options.week, nowOf(context));
}

/**
 * What every store command does around its work: check the data folder, load the use cases (only now, so `--help`
 * stays light), run `fn` on an open digest and close it. `extra` adds to the open options (e.g. `{ offline }`).
 */
export async function withCommandDigest<T>({
  options,
  context,
  fn,
  extra = {},
}: {
  options: CommonOptions;
  context: CliContext;
  fn: (digest: OpenDigest) => Promise<T>;
  extra?: Partial<OpenDigestOptions> | undefined;
}): Promise<T> {
  await checkDataDir(options, context);
  const { withDigest } = await import('../compose/index.js');
  return withDigest({ ...digestOptions(options, context), ...extra }, fn);
}

/** What a week command's work gets besides the open digest. */
export interface WeekCall<O> {
  week: string;
  options: O;
  /** The positional arguments, in order. */
  args: string[];
  /** The checked `--out` folder, absolute ('' when the command has no `out`). */
  outDir: string;
  context: CliContext;
}

/** A command about one week's edition: what it is, its own flags and its work; `weekCommand` adds the rest. */
export interface WeekCommandSpec<O extends WeekOptions> {
  /** The command's name, as declared in cli/commands/index.ts (which gives its description and exit statuses). */
  name: string;
  argument?: [name: string, description: string];
  /** The command's own flags; --help lists them after --week and before the store flags. */
  flags?: (command: Command) => Command;
  /**
   * An `--out <dir>` flag, checked writable before the store opens: what it is for, and its default folder (`drafts`
   * for what is not the live site: only `publish` writes `out`, the folder `digest serve` serves).
   */
  out?: { description: string; folder: string };
  /** What --week defaults to, for --help (default "the most recent Monday"; the command reads `options.week`). */
  weekDefault?: string;
  /** The command only reads the store: a data folder that does not exist is refused, not made. */
  readOnly?: boolean;
  /** Text --help prints after the options (e.g. the exit statuses). */
  help?: string;
  /** Open options beyond the common ones (e.g. `{ offline }`). */
  open?: (options: O) => Partial<OpenDigestOptions>;
  run: (digest: OpenDigest, call: WeekCall<O>) => Promise<void>;
}

/**
 * The one shape of the commands about a week (`--week`, own flags, store flags), as a command's `register`: resolve
 * the week, check `--out`, then run the work on an open digest (closed after, whatever happens).
 */
export function weekCommand<O extends WeekOptions>(
  spec: WeekCommandSpec<O>,
): (program: Command, context: CliContext) => void {
  return (program, context) => {
    const command = declareCommand(program, spec.name);
    if (spec.argument) command.argument(...spec.argument);
    weekOption(command, spec.weekDefault);
    if (spec.out) command.option('--out <dir>', spec.out.description, spec.out.folder);
    spec.flags?.(command);
    withStoreOptions(command);
    if (spec.help) command.addHelpText('after', spec.help);
    command.action(async (...input: unknown[]) => {
      // Commander passes the positional arguments, then the options, then the command itself.
      const args = input.slice(0, -2) as string[];
      const options = input.at(-2) as O & { out?: string };
      const week = commandWeek(options, context);
      if (spec.readOnly) {
        // A bad config is named first, as every command names it; then a data folder that is not there.
        await loadConfig({
          ...(options.config ? { file: options.config } : {}),
          cwd: context.cwd,
          env: context.env,
        });
        checkDataDirExists(digestOptions(options, context));
      }
      const outDir = spec.out
        ? await checkWritableFolder(options.out ?? spec.out.folder, '--out', context.cwd)
        : '';
      await withCommandDigest({
        options,
        context,
        fn: (digest) => spec.run(digest, { week, options, args, outDir, context }),
        extra: spec.open?.(options),
      });
    });
  };
}
