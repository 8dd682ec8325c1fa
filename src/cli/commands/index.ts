// Every CLI command, one file each, registered lazily: a run loads only the module of the command it runs (issue 32:
// importing all of them cost every command, `--help` included, ~180 modules). What `digest --help` lists of each
// command — its usage term and one-line description — is written here, so the list needs no module;
// test/cli/main.test.ts holds these lines equal to what each module registers. A command file exports
// `register(program, context)`.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';

export type RegisterCommand = (program: Command, context: CliContext) => void;

/** A command as `digest --help` lists it. */
export interface CommandLine {
  name: string;
  /** The usage term of the list: name, `[options]` when it has any, its arguments. */
  term: string;
  description: string;
  /** Internal (a process `digest serve` starts): not listed. */
  hidden?: boolean;
}

/** A command module: the commands it registers, in the order of the list, and how to load it. */
export interface CommandModule {
  commands: CommandLine[];
  load: () => Promise<{ register: RegisterCommand }>;
  /** Runs without the store (every other command opens it, so the CLI starts PGlite's start-up work early). */
  withoutStore?: true;
}

/** `name`, `[options]` after it unless `bare`, then `args`. */
function line(name: string, description: string, shape: { args?: string; bare?: boolean } = {}): CommandLine {
  const term = [name, shape.bare ? '' : '[options]', shape.args ?? ''].filter(Boolean).join(' ');
  return { name, term, description };
}

export const COMMANDS: CommandModule[] = [
  {
    commands: [
      line(
        'init',
        'Set up a newsletter here: digest.config.json and a private .env with a fresh DIGEST_SECRET',
      ),
    ],
    load: () => import('./init-command.js'),
    withoutStore: true,
  },
  {
    commands: [
      line(
        'demo',
        'Build the bundled sample week (2026-05-04) offline: recorded real feeds served on loopback',
      ),
    ],
    load: () => import('./demo-command.js'),
  },
  {
    commands: [
      line('build', 'Ingest, select, write and render one edition (default: the most recent Monday)'),
    ],
    load: () => import('./build-command.js'),
  },
  {
    commands: [
      line('list', "Print the week's stored candidates, ranked as the build ranks them, with each signal"),
    ],
    load: () => import('./list-command.js'),
  },
  {
    commands: [
      line('add', "Add an item by hand (a URL or an arXiv id); it is pinned into that week's edition", {
        args: '<url-or-arxiv-id>',
      }),
    ],
    load: () => import('./add-command.js'),
  },
  {
    commands: [
      line('pin', "Always include an item in a week's edition", { args: '<item>' }),
      line('skip', "Keep an item out of a week's edition", { args: '<item>' }),
    ],
    load: () => import('./decide-command.js'),
  },
  {
    commands: [
      line(
        'taste',
        "Print what the ranking learned from published editions, pins, skips and readers' clicks (--reset forgets the editor's history)",
      ),
    ],
    load: () => import('./taste-command.js'),
  },
  {
    commands: [
      line(
        'stats',
        'Print what readers did with a published edition: clicks per item (scanner prefetches apart), mails sent, bounces, complaints, unsubscribes, the trend',
      ),
    ],
    load: () => import('./stats-command.js'),
  },
  {
    commands: [
      line('eval', "Write the week's picks with each model and compare cost, faithfulness and style"),
    ],
    load: () => import('./eval-command.js'),
  },
  {
    commands: [
      line(
        'publish',
        'Mark an edition published and write the site, feeds, email and Markdown (the archive from the store)',
      ),
    ],
    load: () => import('./publish-command.js'),
  },
  {
    commands: [
      line(
        'correct',
        'Correct a published edition: publish its next revision with a reason (readers see the note)',
      ),
    ],
    load: () => import('./correct-command.js'),
  },
  {
    commands: [
      line(
        'email',
        'Write the edition as email: email.html, email.txt and a complete edition.eml (optionally send it)',
      ),
    ],
    load: () => import('./email-command.js'),
  },
  {
    commands: [
      line(
        'chat',
        'Post a published edition to the configured chat channels (Slack, Discord, Telegram); reruns retry only the channels that failed',
      ),
    ],
    load: () => import('./chat-command.js'),
  },
  {
    commands: [
      line(
        'push',
        'Hand the edition to a mail service as a draft campaign (HTML + text); pushing again updates the same draft',
      ),
    ],
    load: () => import('./push-command.js'),
  },
  {
    commands: [
      line(
        'send',
        'Send a published edition to every confirmed subscriber (resumable: a rerun sends only what is missing)',
      ),
    ],
    load: () => import('./send-command.js'),
  },
  {
    commands: [
      line(
        'subscribers',
        'The subscriber list: list, add, remove, import and export (CSV with an "email" column)',
        { bare: true },
      ),
    ],
    load: () => import('./subscribers-command.js'),
  },
  {
    commands: [
      line(
        'serve',
        'Serve the published site with /healthz and /metrics until SIGINT or SIGTERM (then exit 0)',
      ),
    ],
    load: () => import('./serve-command.js'),
  },
  {
    commands: [
      {
        ...line('scheduled-build', "The weekly job's build (digest serve runs it in its own process)"),
        hidden: true,
      },
    ],
    load: () => import('./scheduled-build-command.js'),
  },
  {
    commands: [
      {
        ...line(
          'desk-job',
          'A desk action that builds or regenerates (digest serve runs each in its own process)',
        ),
        hidden: true,
      },
    ],
    load: () => import('./desk-job-command.js'),
  },
  {
    commands: [
      line(
        'mcp',
        'Serve the published editions to an MCP client over stdio (tools: search_items, get_edition, get_item, list_editions)',
      ),
    ],
    load: () => import('./mcp-command.js'),
  },
  {
    commands: [line('editors', "Manage who may sign in to the editor's desk", { bare: true })],
    load: () => import('./editors-command.js'),
  },
  {
    commands: [
      line(
        'backup',
        'Write the whole store to one checked file (gzip NDJSON) while digest serve keeps running',
        { args: '[file]' },
      ),
      line(
        'restore',
        'Check a backup file, then write it into an empty store (a new --data-dir, or an empty DATABASE_URL)',
        { args: '<file>' },
      ),
    ],
    load: () => import('./backup-command.js'),
  },
  {
    commands: [
      line(
        'doctor',
        'Check the set-up (config, data folder, sources, model, mail, base URL, secret) and say how to fix it',
      ),
    ],
    load: () => import('./doctor-command.js'),
    withoutStore: true,
  },
];

/** The module of the command `argv` runs (`digest <name> …` or `digest help <name>`), if it names one. */
export function commandModuleOf(argv: string[]): CommandModule | undefined {
  const name = argv[0] === 'help' ? argv[1] : argv[0];
  return COMMANDS.find((module) => module.commands.some((command) => command.name === name));
}
