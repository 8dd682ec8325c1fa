// The CLI registers its commands lazily (cli/commands/index.ts): `digest --help` lists every command from the table
// of lines, and a run runs only the module of the command it runs. The lines are held equal to what the modules
// register, and the help texts to those of a program with every module loaded.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import type { CliContext } from '../../src/cli/context.js';
import { createProgram } from '../../src/cli/main.js';
import { runDigest } from '../support/cli.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'digest.js');

/** What NODE_V8_COVERAGE writes: each script loaded, by its URL. */
interface V8Coverage {
  result: { url: string }[];
}
const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
const context: CliContext = { stdout: sink, stderr: sink, cwd: process.cwd(), env: {} };

/** A program with every command registered by its own module, as before the table. */
async function everyModule(): Promise<Command> {
  const program = new Command().name('digest');
  for (const module of COMMANDS) (await module.load()).register(program, context);
  return program;
}

/** What `--help` of `program` prints. */
function helpOf(program: Command): string {
  let text = '';
  program.configureOutput({ writeOut: (chunk) => (text += chunk) }).outputHelp();
  return text;
}

describe('the table of commands', () => {
  it('lists each command as its module registers it: name, usage term, description, hidden', async () => {
    const program = await everyModule();
    const help = program.createHelp();
    const registered = program.commands.map((command) => ({
      name: command.name(),
      term: help.subcommandTerm(command),
      description: command.description(),
      hidden: (command as unknown as { _hidden: boolean })._hidden,
    }));
    const listed = COMMANDS.flatMap((module) =>
      module.commands.map(({ name, term, description, hidden }) => ({
        name,
        term,
        description,
        hidden: hidden ?? false,
      })),
    );
    expect(listed).toEqual(registered);
  });

  it('prints the same `digest --help` whichever command is loaded, and lists what every module registers', async () => {
    const reference = helpOf(createProgram(context));
    const commandsPart = (text: string) => text.slice(text.indexOf('\nCommands:'));
    expect(commandsPart(reference)).toBe(commandsPart(helpOf(await everyModule())));
    expect(commandsPart(reference)).toContain('add [options] <url-or-arxiv-id>  Add an item by hand');
    for (const module of COMMANDS) {
      const { register } = await module.load();
      expect(helpOf(createProgram(context, { module, register }))).toBe(reference);
    }
  });
});

describe('a run', () => {
  let cwd: string;
  beforeAll(() => {
    cwd = mkdtempSync(join(tmpdir(), 'digest-cli-main-'));
  });
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  /**
   * The command modules the compiled CLI loads for `args`. Each command's module is a chunk of its own in dist/chunks/
   * (scripts/build.mjs), named after it and imported only when its command runs: V8's coverage of the real process
   * (NODE_V8_COVERAGE) names every script that was loaded.
   */
  async function commandModulesRun(args: string[]): Promise<string[]> {
    const coverage = mkdtempSync(join(tmpdir(), 'digest-cli-coverage-'));
    try {
      await promisify(execFile)(process.execPath, [BIN, ...args], {
        cwd,
        env: { ...process.env, NODE_V8_COVERAGE: coverage },
      }).catch((error: { stderr: string }) => error);
      const urls = readdirSync(coverage).flatMap((file) =>
        (JSON.parse(readFileSync(join(coverage, file), 'utf8')) as V8Coverage).result.map(
          (script) => script.url,
        ),
      );
      expect(urls.some((url) => url.endsWith('/dist/cli/main.js'))).toBe(true);
      return urls
        .map((url) => /\/dist\/chunks\/([a-z-]+-command)-[A-Z0-9]+\.js$/.exec(url)?.[1])
        .filter((name): name is string => name !== undefined)
        .sort();
    } finally {
      rmSync(coverage, { recursive: true, force: true });
    }
  }

  it('runs only the module of its command (none for `digest --help` or an unknown command)', async () => {
    expect(await commandModulesRun(['--help'])).toEqual([]);
    expect(await commandModulesRun(['list', '--help'])).toEqual(['list-command']);
    expect(await commandModulesRun(['help', 'skip'])).toEqual(['decide-command']);
    expect(await commandModulesRun(['buidl'])).toEqual([]);
  });

  it('still names an unknown command or flag and exits 2, and prints a command’s own help', async () => {
    const unknown = await runDigest(['buidl'], { cwd });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command 'buidl'[\s\S]*build/);
    const flag = await runDigest(['list', '--bogus'], { cwd });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("unknown option '--bogus'");
    const skip = await runDigest(['help', 'skip'], { cwd });
    expect(skip.stdout).toMatch(/^Usage: digest skip \[options\] <item>/);
    expect(skip.stdout).toContain('--undo');
  });
});
