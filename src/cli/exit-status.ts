// What each command's exit status means: the one declaration its --help prints and docs/exit-status.md states
// (test/cli/exit-status.test.ts holds the two together). main.ts maps errors to these codes.

export const EXIT = { ok: 0, nothingDone: 1, badInput: 2, needsALook: 3 } as const;

/** Every command: 1 and 2 mean these unless the command says more (below); 130/143 a stop by signal. */
const SHARED: Record<number, string> = {
  1: 'nothing was done: something failed, and the message says what',
  2: 'bad input: a flag, a config field, a key or an unknown name, said in the message; nothing was done',
};

/** What a command adds: what 1 or 2 mean for it, and 3 (done, but needs a look before anything automatic goes on). */
export const COMMAND_EXITS: Record<string, Partial<Record<1 | 2 | 3, string>>> = {
  init: {},
  demo: {},
  build: {
    1: 'nothing could be built: every source failed, or no candidates',
    2: 'bad input, or the week is published or mailed: a change is a correction (digest correct); a plain rebuild of it says "already published" and exits 0',
    3: 'built, but thin (fewer items than selection.minItems), or LLM items fell back to the extractive writer, failed the faithfulness check, or the budget ran out',
  },
  correct: {},
  list: {},
  add: {},
  pin: {},
  skip: {},
  taste: {},
  stats: { 1: 'no published edition yet, or none for --week: publish it first' },
  eval: { 3: 'some model has flagged claims, unsupported sentences or fallbacks' },
  publish: {
    1: 'no edition to publish yet: build it first',
    3: 'the edition has fallbacks or flagged items (not published; --allow-flagged), is thin (--allow-thin), or a chat channel failed',
  },
  email: { 1: 'no edition for the week yet: build it first' },
  chat: {
    1: 'the edition is not published yet: publish it first',
    3: 'some channel failed; run it again to retry only those',
  },
  push: {},
  send: {
    1: 'no published edition to send, or none for --week: build and publish it first',
    2: 'bad input, or --correction for a week with no correction (correct it first: digest correct) or without --week',
    3: 'some mails failed or are uncertain, the SMTP server could not be reached (nothing marked), or the edition has flagged items (not sent; --allow-flagged) or is thin (--allow-thin)',
  },
  subscribers: { 3: 'import: some lines were invalid (each named)' },
  serve: {},
  mcp: {},
  editors: { 1: 'remove: no such editor' },
  doctor: { 2: 'some check failed (or the config is invalid): each problem is named, with its fix' },
};

/** The codes a command can exit with (130/143 aside): 0, 1, 2, and 3 when COMMAND_EXITS gives it. */
export function exitCodesOf(command: string): number[] {
  return [0, 1, 2, ...(COMMAND_EXITS[command]?.[3] ? [3] : [])];
}

/** The "Exit status" block of a command's --help. */
export function exitStatusHelp(command: string): string {
  const meanings: Record<number, string | undefined> = { 0: 'done', ...SHARED, ...COMMAND_EXITS[command] };
  const lines = exitCodesOf(command).map((code) => `  ${code}  ${meanings[code]}`);
  return `\nExit status:\n${lines.join('\n')}\n  130/143  stopped by Ctrl-C / SIGTERM (nothing half-saved)\n(every command's: docs/exit-status.md)`;
}
