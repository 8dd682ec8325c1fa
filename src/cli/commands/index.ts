// The command modules, loaded when their command runs: a run loads only the module of the command it runs, so `--help`
// and every command start without the other commands' modules. What each command is (name, description, exit
// statuses) is declared in declarations.ts.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { type CommandDeclaration, DECLARATIONS } from './declarations.js';

export type { CommandLine } from './declarations.js';

export type RegisterCommand = (program: Command, context: CliContext) => void;

/** A command module: its declaration, and how to load what registers it. */
export interface CommandModule extends CommandDeclaration {
  load: () => Promise<{ register: RegisterCommand }>;
}

type ModuleName = (typeof DECLARATIONS)[number]['module'];

const LOADERS = {
  init: () => import('./init-command.js'),
  demo: () => import('./demo-command.js'),
  build: () => import('./build-command.js'),
  list: () => import('./list-command.js'),
  add: () => import('./add-command.js'),
  decide: () => import('./decide-command.js'),
  taste: () => import('./taste-command.js'),
  stats: () => import('./stats-command.js'),
  eval: () => import('./eval-command.js'),
  publish: () => import('./publish-command.js'),
  correct: () => import('./correct-command.js'),
  email: () => import('./email-command.js'),
  chat: () => import('./chat-command.js'),
  push: () => import('./push-command.js'),
  send: () => import('./send-command.js'),
  subscribers: () => import('./subscribers-command.js'),
  serve: () => import('./serve-command.js'),
  'scheduled-build': () => import('./scheduled-build-command.js'),
  'desk-job': () => import('./desk-job-command.js'),
  mcp: () => import('./mcp-command.js'),
  editors: () => import('./editors-command.js'),
  backup: () => import('./backup-command.js'),
  doctor: () => import('./doctor-command.js'),
} satisfies Record<ModuleName, CommandModule['load']>;

export const COMMANDS: CommandModule[] = DECLARATIONS.map((declaration) => ({
  ...declaration,
  load: LOADERS[declaration.module],
}));

/** The module of the command `argv` runs (`digest <name> …` or `digest help <name>`), if it names one. */
export function commandModuleOf(argv: string[]): CommandModule | undefined {
  const name = argv[0] === 'help' ? argv[1] : argv[0];
  return COMMANDS.find((module) => module.commands.some((command) => command.name === name));
}
