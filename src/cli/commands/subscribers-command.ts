import { readFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { ConfigError } from '../../core/errors.js';
import { describeImport, describeMail, SUBSCRIBER_STATUSES } from '../../subscribers/index.js';
import type { CliContext } from '../context.js';
import { type CommonOptions, withCommandDigest, withStoreOptions } from '../options.js';
import { declareCommand } from './declarations.js';

type Status = (typeof SUBSCRIBER_STATUSES)[number];

function parseStatus(value: string): Status {
  if (!(SUBSCRIBER_STATUSES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`expected one of ${SUBSCRIBER_STATUSES.join(', ')}`);
  }
  return value as Status;
}

interface ListOptions extends CommonOptions {
  status?: Status;
  json?: boolean;
}

type Confirmed = CommonOptions & { confirmed?: boolean };

/** Who adds or imports from the terminal: the operator's account, in each changed reader's status history. */
function operatorAccount(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return 'cli:operator';
  }
}

/** Who asserts consent from the terminal: the operator's account, recorded on each reader confirmed so. */
function consentBy(options: Confirmed): string | null {
  return options.confirmed ? operatorAccount() : null;
}

export function register(program: Command, context: CliContext): void {
  const group = declareCommand(program, 'subscribers');
  for (const registerOne of [list, add, remove, importCsv, exportList]) registerOne(group, context);
}

/** `digest subscribers <name>` with its argument (if any); the caller adds its flags, then the store flags. */
function subcommand({
  group,
  name,
  description,
  argument,
}: {
  group: Command;
  name: string;
  description: string;
  argument?: [name: string, description: string];
}): Command {
  const command = group.command(name).description(description);
  return argument ? command.argument(...argument) : command;
}

function list(group: Command, context: CliContext): void {
  withStoreOptions(
    subcommand({
      group,
      name: 'list',
      description:
        'one subscriber per line: address, status, subscribed at, and their confirmation or welcome mail when it failed, waits for a retry or is uncertain',
    })
      .option('--status <status>', `only this status (${SUBSCRIBER_STATUSES.join(', ')})`, parseStatus)
      .option('--json', 'one JSON object per line'),
  ).action(async (options: ListOptions) => {
    await withCommandDigest({
      options,
      context,
      fn: async (digest) => {
        let count = 0;
        for await (const subscriber of await digest.subscribers.list(
          options.status ? { status: options.status } : {},
        )) {
          count++;
          context.stdout.write(
            options.json
              ? `${JSON.stringify(subscriber)}\n`
              : `${[subscriber.address, subscriber.status, subscriber.createdAt, describeMail(subscriber.mail)].join('\t').trimEnd()}\n`,
          );
        }
        digest.log.info(`${count} subscriber(s)${options.status ? ` ${options.status}` : ''}`);
      },
    });
  });
}

function add(group: Command, context: CliContext): void {
  withStoreOptions(
    subcommand({
      group,
      name: 'add',
      description:
        'add one address: pending, with a confirmation mail through the outbox (`digest serve` sends it), unless --confirmed',
      argument: ['<email>', 'the address'],
    }).option(
      '--confirmed',
      'you assert the reader consented (e.g. moved from another list): confirmed at once, recorded with your account and the time',
    ),
  ).action(async (email: string, options: Confirmed) => {
    await withCommandDigest({
      options,
      context,
      fn: async (digest) => {
        const result = await digest.subscribers.add({
          email,
          consentBy: consentBy(options),
          by: operatorAccount(),
        });
        const { address, status } = result.subscriber;
        const mailed = result.mailed ? ', confirmation mail queued' : '';
        const said = {
          added: `added ${address} (${status}${mailed})`,
          confirmed: `${address} is now confirmed`,
          subscribed: `${address} is already ${status}${mailed}`,
          unsubscribed: `${address} is ${status} and stays so: only the reader can subscribe again (through the form)`,
        };
        context.stdout.write(`${said[result.outcome]}\n`);
      },
    });
  });
}

function remove(group: Command, context: CliContext): void {
  withStoreOptions(
    subcommand({
      group,
      name: 'remove',
      description:
        'delete a subscriber and everything stored about them (their preferences and send-log rows too)',
      argument: ['<email>', 'the address'],
    }).alias('delete'),
  ).action(async (email: string, options: CommonOptions) => {
    await withCommandDigest({
      options,
      context,
      fn: async (digest) => {
        const address = await digest.subscribers.remove({ email });
        context.stdout.write(`removed ${address}\n`);
      },
    });
  });
}

function importCsv(group: Command, context: CliContext): void {
  withStoreOptions(
    subcommand({
      group,
      name: 'import',
      description:
        'add the addresses of a CSV file with an "email" column: each new one pending, with a confirmation mail through the outbox, unless --confirmed',
      argument: ['<file>', 'CSV file, UTF-8, header line first'],
    }).option(
      '--confirmed',
      'you assert they consented (opted in elsewhere): new and pending addresses confirmed at once, recorded with your account and the time',
    ),
  ).action(async (file: string, options: Confirmed) => {
    const path = resolve(context.cwd, file);
    const csv = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new ConfigError(`Cannot read ${path}: ${error.code ?? error.message}.`, [
        { path: '<file>', message: 'not readable' },
      ]);
    });
    await withCommandDigest({
      options,
      context,
      fn: async (digest) => {
        const report = await digest.subscribers.import({
          csv,
          consentBy: consentBy(options),
          by: operatorAccount(),
        });
        for (const bad of report.invalid) {
          context.stderr.write(`line ${bad.line}: skipped ${JSON.stringify(bad.value)}: ${bad.problem}\n`);
        }
        context.stdout.write(`imported ${path}: ${describeImport(report)}\n`);
        if (report.invalid.length) context.exitCode = 3;
      },
    });
  });
}

function exportList(group: Command, context: CliContext): void {
  withStoreOptions(
    subcommand({
      group,
      name: 'export',
      description:
        'the list as CSV on stdout (email,status,created_at,confirmed_at); with <email>, everything stored about that reader as JSON',
      argument: [
        '[email]',
        "one reader: their row, preferences, send log and outbox mails (a data subject's copy)",
      ],
    }).option('--status <status>', `only this status (${SUBSCRIBER_STATUSES.join(', ')})`, parseStatus),
  ).action(async (email: string | undefined, options: CommonOptions & { status?: Status }) => {
    await withCommandDigest({
      options,
      context,
      fn: async (digest) => {
        if (email !== undefined) {
          const data = await digest.subscribers.exportReader({ email });
          context.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
          return;
        }
        for await (const line of await digest.subscribers.export(
          options.status ? { status: options.status } : {},
        )) {
          context.stdout.write(line);
        }
      },
    });
  });
}
