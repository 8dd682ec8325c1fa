// docs/exit-status.md states what every command exits with; each command's declaration (cli/commands/index.ts) says it
// and its --help prints it.
// The two are held together here, and every registered command has its row.
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { commandExits, exitCodesOf } from '../../src/cli/exit-status.js';
import { createProgram } from '../../src/cli/main.js';

const page = readFileSync(new URL('../../docs/exit-status.md', import.meta.url), 'utf8');

/** The "By command" rows: command → [codes, what 1 means, what 3 means]. */
function documented(): Map<string, { codes: number[]; one: string; three: string }> {
  const rows = new Map<string, { codes: number[]; one: string; three: string }>();
  for (const line of page.split('\n')) {
    const cells = /^\| `digest ([a-z][\w-]*)` \|(.*)\|$/.exec(line);
    if (!cells) continue;
    const [codes = '', one = '', three = ''] = cells[2]!.split('|').map((cell) => cell.trim());
    rows.set(cells[1]!, { codes: codes.split(',').map(Number), one, three });
  }
  return rows;
}

const plain = (text: string) => text.replace(/`/g, '');

/** `digest <name> --help` as the CLI prints it, with the command's own module loaded, in this process. */
async function helpOf(name: string): Promise<string> {
  const module = COMMANDS.find((candidate) => candidate.commands.some((command) => command.name === name))!;
  let text = '';
  const out = new Writable({
    write: (chunk, _encoding, done) => {
      text += String(chunk);
      done();
    },
  });
  const program = createProgram(
    { stdout: out, stderr: out, cwd: process.cwd(), env: {} },
    { module, register: (await module.load()).register },
  );
  program.commands.find((command) => command.name() === name)!.outputHelp();
  return text;
}

describe('the exit table', () => {
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  const program = createProgram({ stdout: sink, stderr: sink, cwd: process.cwd(), env: {} });
  // Hidden commands (the weekly job's own process) are internal: no row, no declaration.
  const registered = program
    .createHelp()
    .visibleCommands(program)
    .map((command) => command.name())
    .filter((name) => name !== 'help')
    .sort();

  it('has a row and a declaration for every command, and nothing else', () => {
    expect([...documented().keys()].sort()).toEqual(registered);
    expect(Object.keys(commandExits()).sort()).toEqual(registered);
  });

  it('states the codes and meanings cli/ declares', () => {
    for (const [name, row] of documented()) {
      expect(row.codes, name).toEqual(exitCodesOf(name));
      const declared = commandExits()[name]!;
      if (declared[1]) expect(plain(row.one), name).toBe(declared[1]);
      else expect(row.one, name).toBe('');
      if (declared[3]) expect(plain(row.three), name).toBe(declared[3]);
    }
  });

  it("names every status of the general table, and each command's --help prints its own", async () => {
    const general = readFileSync(new URL('../../docs/weekly.md', import.meta.url), 'utf8');
    for (const code of ['`0`', '`1`', '`2`', '`3`', '`130` / `143`'])
      expect(general).toContain(`| ${code} |`);
    expect(general).toContain('(exit-status.md)');
    const help = await helpOf('send');
    expect(help).toContain(`1  ${commandExits().send![1]}`);
    expect(help).toContain(`3  ${commandExits().send![3]}`);
  });
});
