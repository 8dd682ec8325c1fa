// `digest editors add|list|remove`: who may sign in to the editor's desk (`digest serve` /admin).
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import type { Command } from 'commander';
import { ConfigError } from '../../core/errors.js';
import { MIN_PASSWORD_LENGTH } from '../../desk/index.js';
import type { CliContext } from '../context.js';
import {
  type CommonOptions,
  checkDataDir,
  digestOptions,
  withCommandDigest,
  withStoreOptions,
} from '../options.js';
import { declareCommand } from './declarations.js';

const PASSWORD_ENV = 'DIGEST_EDITOR_PASSWORD';

/** Reads a line from the terminal without echoing it. */
function promptHidden(question: string, output: NodeJS.WritableStream): Promise<string> {
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
  const reader = createInterface({ input: process.stdin, output: muted, terminal: true });
  output.write(question);
  return new Promise((resolve) =>
    reader.question('', (answer) => {
      reader.close();
      output.write('\n');
      resolve(answer);
    }),
  );
}

async function readPassword(context: CliContext): Promise<string> {
  const fromEnv = context.env[PASSWORD_ENV];
  if (fromEnv) return fromEnv;
  if (!process.stdin.isTTY) {
    throw new ConfigError(
      `No password: set ${PASSWORD_ENV} (at least ${MIN_PASSWORD_LENGTH} characters), or run this in a terminal to be asked.`,
      [{ path: PASSWORD_ENV, message: 'missing' }],
    );
  }
  const first = await promptHidden(`Password (at least ${MIN_PASSWORD_LENGTH} characters): `, context.stderr);
  const second = await promptHidden('Again: ', context.stderr);
  if (first !== second) {
    throw new ConfigError('The two passwords differ.', [{ path: 'password', message: 'not confirmed' }]);
  }
  return first;
}

export function register(program: Command, context: CliContext): void {
  const editors = declareCommand(program, 'editors');

  const add = editors
    .command('add')
    .description(`Add an editor (password from ${PASSWORD_ENV}, or asked for in a terminal)`)
    .argument('<email>', "the editor's e-mail address (their sign-in name)");
  withStoreOptions(add).action(async (email: string, options: CommonOptions) => {
    await checkDataDir(options, context);
    const password = await readPassword(context);
    const { withDigest } = await import('../../compose/index.js');
    await withDigest(digestOptions(options, context), async (digest) => {
      const editor = await digest.editors.add({ email, password });
      context.stdout.write(`Added editor ${editor.email} (store: ${digest.storeLocation}).\n`);
    });
  });

  const list = editors.command('list').description('List the editors');
  withStoreOptions(list).action(async (options: CommonOptions) => {
    await withCommandDigest({
      options,
      context,
      fn: async (digest) => {
        const all = await digest.editors.list();
        if (!all.length)
          context.stdout.write('No editors yet: add one with "./digest editors add <email>".\n');
        for (const editor of all) context.stdout.write(`${editor.email}  (added ${editor.createdAt})\n`);
      },
    });
  });

  const remove = editors
    .command('remove')
    .description('Remove an editor and end their sessions')
    .argument('<email>', "the editor's e-mail address");
  withStoreOptions(remove).action(async (email: string, options: CommonOptions) => {
    await withCommandDigest({
      options,
      context,
      fn: async (digest) => {
        const removed = await digest.editors.remove({ email });
        context.stdout.write(removed ? `Removed editor ${email}.\n` : `${email} was not an editor.\n`);
        if (!removed) context.exitCode = 1;
      },
    });
  });
}
