// `digest correct`: the one way to change a published or mailed edition. Without --edition it writes the published
// text to a file to edit; with it, the edited file is published as the next revision with the reason.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { checkWritableFolder } from '../../config/inputs.js';
import { ConfigError } from '../../core/errors.js';
import type { CliContext } from '../context.js';
import { type CommonOptions, parseWeek, withCommandDigest, withStoreOptions } from '../options.js';
import { declareCommand } from './declarations.js';

interface CorrectCommandOptions extends CommonOptions {
  week: string;
  reason?: string;
  edition?: string;
  out: string;
  editor: string;
}

export const CORRECT_HELP =
  '\nWithout --edition: writes the published text to corrections/<week>.json to edit.\n' +
  'With it: publishes the edited text as the next revision (the earlier one stays readable).\n' +
  '\nExit status:\n' +
  '  0  the draft was written, or the correction is published\n' +
  '  2  bad input: no reason, an invalid file (the field named), nothing changed, not published';

export function register(program: Command, context: CliContext): void {
  const command = declareCommand(program, 'correct');
  command
    .requiredOption('--week <date>', 'edition date YYYY-MM-DD', parseWeek)
    .option('--reason <text>', 'why it is corrected (shown on the page and in the correction notice)')
    .option('--edition <file>', 'the corrected text (the file written without --edition, edited)')
    .option('--out <dir>', 'the site folder (digest serve --out reads it)', 'out')
    .option('--editor <name>', 'who corrects it (kept with the revision and in the audit log)', 'operator')
    .addHelpText('after', CORRECT_HELP);
  withStoreOptions(command).action(async (options: CorrectCommandOptions) => {
    if (!options.reason?.trim()) throw new ConfigError('--reason: say why the edition is corrected.');
    const outDir = await checkWritableFolder(options.out, '--out', context.cwd);
    await withCommandDigest({
      options,
      context,
      fn: async (digest) => {
        if (!options.edition) {
          const draft = await digest.correctionDraft(options.week);
          const file = resolve(context.cwd, 'corrections', `${options.week}.json`);
          await mkdir(dirname(file), { recursive: true });
          await writeFile(file, `${JSON.stringify(draft, null, 2)}\n`);
          context.stdout.write(`${file}\n`);
          context.stderr.write(
            `Edit it, then publish the correction: ./digest correct --week ${options.week} --reason "…" --edition ${file}\n`,
          );
          return;
        }
        const outcome = await digest.correct({
          week: options.week,
          reason: options.reason ?? '',
          editor: options.editor,
          corrected: await readCorrected(resolve(context.cwd, options.edition)),
          outDir,
        });
        context.stdout.write(
          `${resolve(outDir, options.week, 'index.html')} (revision ${outcome.revision})\n`,
        );
      },
    });
  });
}

async function readCorrected(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch (error) {
    throw new ConfigError(`--edition: ${file} is not a readable JSON file (${(error as Error).message}).`);
  }
}
