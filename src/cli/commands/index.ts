// Every CLI command, one file each. A command file exports `register(program, context)`.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { register as add } from './add.js';
import { register as build } from './build.js';
import { register as chat } from './chat.js';
import { register as correct } from './correct.js';
import { register as decide } from './decide.js';
import { register as demo } from './demo.js';
import { register as doctor } from './doctor.js';
import { register as editors } from './editors.js';
import { register as email } from './email.js';
import { register as evaluate } from './eval.js';
import { register as init } from './init.js';
import { register as list } from './list.js';
import { register as mcp } from './mcp.js';
import { register as publish } from './publish.js';
import { register as push } from './push.js';
import { register as send } from './send.js';
import { register as serve } from './serve.js';
import { register as subscribers } from './subscribers.js';
import { register as taste } from './taste.js';

export type RegisterCommand = (program: Command, context: CliContext) => void;

export const COMMANDS: RegisterCommand[] = [
  init,
  demo,
  build,
  list,
  add,
  decide,
  taste,
  evaluate,
  publish,
  correct,
  email,
  chat,
  push,
  send,
  subscribers,
  serve,
  mcp,
  editors,
  doctor,
];
