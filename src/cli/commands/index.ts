// Every CLI command, one file each. A command file exports `register(program, context)`.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { register as add } from './add-command.js';
import { register as build } from './build-command.js';
import { register as chat } from './chat-command.js';
import { register as correct } from './correct-command.js';
import { register as decide } from './decide-command.js';
import { register as demo } from './demo-command.js';
import { register as deskJob } from './desk-job-command.js';
import { register as doctor } from './doctor-command.js';
import { register as editors } from './editors-command.js';
import { register as email } from './email-command.js';
import { register as evaluate } from './eval-command.js';
import { register as init } from './init-command.js';
import { register as list } from './list-command.js';
import { register as mcp } from './mcp-command.js';
import { register as publish } from './publish-command.js';
import { register as push } from './push-command.js';
import { register as scheduledBuild } from './scheduled-build-command.js';
import { register as send } from './send-command.js';
import { register as serve } from './serve-command.js';
import { register as stats } from './stats-command.js';
import { register as subscribers } from './subscribers-command.js';
import { register as taste } from './taste-command.js';

export type RegisterCommand = (program: Command, context: CliContext) => void;

export const COMMANDS: RegisterCommand[] = [
  init,
  demo,
  build,
  list,
  add,
  decide,
  taste,
  stats,
  evaluate,
  publish,
  correct,
  email,
  chat,
  push,
  send,
  subscribers,
  serve,
  scheduledBuild,
  deskJob,
  mcp,
  editors,
  doctor,
];
