// docs/exit-status.md states what every command exits with; cli/exit-status.ts declares it (and each --help prints it).
// The two are held together here, and every registered command has its row.
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { COMMAND_EXITS, exitCodesOf } from '../../src/cli/exit-status.js';
import { createProgram } from '../../src/cli/main.js';
import { runDigest } from '../support/cli.js';

const page = readFileSync(new URL('../../docs/exit-status.md', import.meta.url), 'utf8');

/** The "By command" rows: command → [codes, what 1 means, what 3 means]. */
function documented(): Map<string, { codes: number[]; one: string; three: string }> {
  const rows = new Map<string, { codes: number[]; one: string; three: string }>();
  for (const line of page.split('\n')) {
    const cells = /^\| `digest (\w+)` \|(.*)\|$/.exec(line);
    if (!cells) continue;
    const [codes = '', one = '', three = ''] = cells[2]!.split('|').map((cell) => cell.trim());
    rows.set(cells[1]!, { codes: codes.split(',').map(Number), one, three });
  }
  return rows;
}

const plain = (text: string) => text.replace(/`/g, '');

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
    expect(Object.keys(COMMAND_EXITS).sort()).toEqual(registered);
  });

  it('states the codes and meanings cli/ declares', () => {
    for (const [name, row] of documented()) {
      expect(row.codes, name).toEqual(exitCodesOf(name));
      const declared = COMMAND_EXITS[name]!;
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
    const help = await runDigest(['send', '--help'], { cwd: process.cwd() });
    expect(help.stdout).toContain(`1  ${COMMAND_EXITS.send![1]}`);
    expect(help.stdout).toContain(`3  ${COMMAND_EXITS.send![3]}`);
  });
});
