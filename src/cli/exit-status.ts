// What the exit statuses mean: the shared meanings here, each command's own in its declaration
// (cli/commands/index.ts). Its --help prints them and docs/exit-status.md states them (test/cli/exit-status.test.ts
// holds the two together). main.ts maps errors to these codes.
import { type CommandExits, declaredCommands } from './commands/declarations.js';

export const EXIT = { ok: 0, nothingDone: 1, badInput: 2, needsALook: 3 } as const;

/** Every command: 1 and 2 mean these unless the command says more (below); 130/143 a stop by signal. */
const SHARED: Record<number, string> = {
  1: 'nothing was done: something failed, and the message says what',
  2: 'bad input: a flag, a config field, a key or an unknown name, said in the message; nothing was done',
};

/** What a command adds: what 1 or 2 mean for it, and 3 (done, but needs a look before anything automatic goes on). */

/** Each listed command's own exit meanings, by name. */
export function commandExits(): Record<string, CommandExits> {
  const listed = declaredCommands().filter((command) => !command.hidden);
  return Object.fromEntries(listed.map((command) => [command.name, command.exits]));
}

/** The codes a command can exit with (130/143 aside): 0, 1, 2, and 3 when its declaration gives it. */
export function exitCodesOf(command: string): number[] {
  return [0, 1, 2, ...(commandExits()[command]?.[3] ? [3] : [])];
}

/** The "Exit status" block of a command's --help. */
export function exitStatusHelp(command: string): string {
  const meanings: Record<number, string | undefined> = { 0: 'done', ...SHARED, ...commandExits()[command] };
  const lines = exitCodesOf(command).map((code) => `  ${code}  ${meanings[code]}`);
  return `\nExit status:\n${lines.join('\n')}\n  130/143  stopped by Ctrl-C / SIGTERM (nothing half-saved)\n(every command's: docs/exit-status.md)`;
}
