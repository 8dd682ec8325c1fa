// Every CLI command, one file each. A command file exports `register(program, context)`.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';

export type RegisterCommand = (program: Command, context: CliContext) => void;

export const COMMANDS: RegisterCommand[] = [];
