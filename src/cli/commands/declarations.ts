// Every CLI command, declared once: its name, usage term, one-line description, what its exit statuses mean, and the
// module that registers its options and work (`<module>-command.ts`). `digest --help`, each command's help, and the
// check that docs/exit-status.md states the same come from this table. A command module creates its command with
// `declareCommand(program, name)`; index.ts loads the module only when its command runs.
import type { Command } from 'commander';
/** What exit 1, 2 or 3 means for one command, beyond the shared meanings (cli/exit-status.ts). */
export type CommandExits = Partial<Record<1 | 2 | 3, string>>;

/** A command as `digest --help` lists it and its --help explains it. */
export interface CommandLine {
  name: string;
  /** The usage term of the list: name, `[options]` when it has any, its arguments. */
  term: string;
  description: string;
  /** Its own meaning of 1 or 2, and 3 when it can end "done, but needs a look". */
  exits: CommandExits;
  /** Internal (a process `digest serve` starts): not listed, no exit-status row. */
  hidden?: boolean;
}

/** The commands one module registers, in the order of the list. */
export interface CommandDeclaration {
  /** The module's file, `<module>-command.ts` beside this one. */
  module: string;
  commands: readonly CommandLine[];
  /** Runs without the store (every other command opens it, so the CLI starts PGlite's start-up work early). */
  withoutStore?: true;
}

interface LineShape {
  args?: string;
  bare?: boolean;
  exits?: CommandExits;
  hidden?: boolean;
}

/** `name`, `[options]` after it unless `bare`, then `args`. */
function line(name: string, description: string, shape: LineShape = {}): CommandLine {
  const term = [name, shape.bare ? '' : '[options]', shape.args ?? ''].filter(Boolean).join(' ');
  return { name, term, description, exits: shape.exits ?? {}, ...(shape.hidden ? { hidden: true } : {}) };
}

export const DECLARATIONS = [
  {
    module: 'init',
    commands: [
      line(
        'init',
        'Set up a newsletter here: digest.config.json and a private .env with a fresh DIGEST_SECRET',
      ),
    ],
    withoutStore: true,
  },
  {
    module: 'demo',
    commands: [
      line(
        'demo',
        'Build the bundled sample week (2026-05-04) offline: recorded real feeds served on loopback',
      ),
    ],
  },
  {
    module: 'build',
    commands: [
      line('build', 'Ingest, select, write and render one edition (default: the most recent Monday)', {
        exits: {
          1: 'nothing could be built: every source failed, or no candidates',
          2: 'bad input, or the week is published or mailed: a change is a correction (digest correct); a plain rebuild of it says "already published" and exits 0',
          3: 'built, but thin (fewer items than selection.minItems), or LLM items fell back to the extractive writer, failed the faithfulness check, or the budget ran out',
        },
      }),
    ],
  },
  {
    module: 'list',
    commands: [
      line('list', "Print the week's stored candidates, ranked as the build ranks them, with each signal"),
    ],
  },
  {
    module: 'add',
    commands: [
      line('add', "Add an item by hand (a URL or an arXiv id); it is pinned into that week's edition", {
        args: '<url-or-arxiv-id>',
      }),
    ],
  },
  {
    module: 'decide',
    commands: [
      line('pin', "Always include an item in a week's edition", { args: '<item>' }),
      line('skip', "Keep an item out of a week's edition", { args: '<item>' }),
    ],
  },
  {
    module: 'taste',
    commands: [
      line(
        'taste',
        "Print what the ranking learned from published editions, pins, skips and readers' clicks (--reset forgets the editor's history)",
      ),
    ],
  },
  {
    module: 'stats',
    commands: [
      line(
        'stats',
        'Print what readers did with a published edition: clicks per item (scanner prefetches apart), mails sent, bounces, complaints, unsubscribes, the trend',
        { exits: { 1: 'no published edition yet, or none for --week: publish it first' } },
      ),
    ],
  },
  {
    module: 'eval',
    commands: [
      line('eval', "Write the week's picks with each model and compare cost, faithfulness and style", {
        exits: { 3: 'some model has flagged claims, unsupported sentences or fallbacks' },
      }),
    ],
  },
  {
    module: 'publish',
    commands: [
      line(
        'publish',
        'Mark an edition published and write the site, feeds, email and Markdown (the archive from the store)',
        {
          exits: {
            1: 'no edition to publish yet: build it first',
            3: 'the edition has fallbacks or flagged items (not published; --allow-flagged), is thin (--allow-thin), or a chat channel failed',
          },
        },
      ),
    ],
  },
  {
    module: 'correct',
    commands: [
      line(
        'correct',
        'Correct a published edition: publish its next revision with a reason (readers see the note)',
      ),
    ],
  },
  {
    module: 'email',
    commands: [
      line(
        'email',
        'Write the edition as email: email.html, email.txt and a complete edition.eml (optionally send it)',
        { exits: { 1: 'no edition for the week yet: build it first' } },
      ),
    ],
  },
  {
    module: 'chat',
    commands: [
      line(
        'chat',
        'Post a published edition to the configured chat channels (Slack, Discord, Telegram); reruns retry only the channels that failed',
        {
          exits: {
            1: 'the edition is not published yet: publish it first',
            3: 'some channel failed; run it again to retry only those',
          },
        },
      ),
    ],
  },
  {
    module: 'push',
    commands: [
      line(
        'push',
        'Hand the edition to a mail service as a draft campaign (HTML + text); pushing again updates the same draft',
      ),
    ],
  },
  {
    module: 'send',
    commands: [
      line(
        'send',
        'Send a published edition to every confirmed subscriber (resumable: a rerun sends only what is missing)',
        {
          exits: {
            1: 'no published edition to send, or none for --week: build and publish it first',
            2: 'bad input, or --correction for a week with no correction (correct it first: digest correct) or without --week',
            3: 'some mails failed or are uncertain, the SMTP server could not be reached (nothing marked), or the edition has flagged items (not sent; --allow-flagged) or is thin (--allow-thin)',
          },
        },
      ),
    ],
  },
  {
    module: 'subscribers',
    commands: [
      line(
        'subscribers',
        'The subscriber list: list, add, remove, import and export (CSV with an "email" column)',
        { bare: true, exits: { 3: 'import: some lines were invalid (each named)' } },
      ),
    ],
  },
  {
    module: 'serve',
    commands: [
      line(
        'serve',
        'Serve the published site with /healthz and /metrics until SIGINT or SIGTERM (then exit 0)',
      ),
    ],
  },
  {
    module: 'scheduled-build',
    commands: [
      line('scheduled-build', "The weekly job's build (digest serve runs it in its own process)", {
        hidden: true,
      }),
    ],
  },
  {
    module: 'desk-job',
    commands: [
      line(
        'desk-job',
        'A desk action that builds or regenerates (digest serve runs each in its own process)',
        { hidden: true },
      ),
    ],
  },
  {
    module: 'mcp',
    commands: [
      line(
        'mcp',
        'Serve the published editions to an MCP client over stdio (tools: search_items, get_edition, get_item, list_editions)',
      ),
    ],
  },
  {
    module: 'editors',
    commands: [
      line('editors', "Manage who may sign in to the editor's desk", {
        bare: true,
        exits: { 1: 'remove: no such editor' },
      }),
    ],
  },
  {
    module: 'backup',
    commands: [
      line(
        'backup',
        'Write the whole store to one checked file (gzip NDJSON) while digest serve keeps running',
        {
          args: '[file]',
        },
      ),
      line(
        'restore',
        'Check a backup file, then write it into an empty store (a new --data-dir, or an empty DATABASE_URL)',
        {
          args: '<file>',
          exits: {
            2: 'bad input: the file is damaged, not a backup, or from a newer digest; or the target store is not empty. Nothing was restored',
          },
        },
      ),
    ],
  },
  {
    module: 'doctor',
    commands: [
      line(
        'doctor',
        'Check the set-up (config, data folder, sources, model, mail, base URL, secret) and say how to fix it',
        { exits: { 2: 'some check failed (or the config is invalid): each problem is named, with its fix' } },
      ),
    ],
    withoutStore: true,
  },
] as const satisfies readonly CommandDeclaration[];

/** Every command's declaration, by name. */
export function declaredCommands(): CommandLine[] {
  return DECLARATIONS.flatMap((declaration): CommandLine[] => [...declaration.commands]);
}

/** Creates the command `name` on `program` as declared here: its description, and hidden when internal. */
export function declareCommand(program: Command, name: string): Command {
  const declared = declaredCommands().find((command) => command.name === name);
  if (!declared) throw new Error(`"${name}" is not declared in cli/commands/declarations.ts`);
  return program.command(name, { hidden: declared.hidden ?? false }).description(declared.description);
}
