import { InvalidArgumentError } from 'commander';
import type { OpenDigest } from '../../compose/index.js';
import { FlaggedEditionError } from '../../core/edition-flags.js';
import { ThinEditionError } from '../../core/edition-thin.js';
import { NotReadyError, SendTimeError, SmtpUnreachableError } from '../../core/errors.js';
import { formatInZone, parseZonedTime } from '../../core/zoned-time.js';
import type { SendInput, SendOutcome, SendProgress } from '../../subscribers/index.js';
import type { CliContext } from '../context.js';
import { type WeekOptions, weekCommand } from '../options.js';

interface SendCommandOptions
  extends WeekOptions,
    ScheduleFlags,
    Pick<SendInput, 'dryRun' | 'allowFlagged' | 'allowThin' | 'resendUncertain' | 'baseUrl' | 'correction'> {
  test?: string;
}

/** `--at` and `--cancel`: a send set for later instead of now. */
interface ScheduleFlags {
  at?: string;
  cancel?: boolean;
}

export const register = weekCommand<SendCommandOptions>({
  name: 'send',
  weekDefault: 'the newest published edition, unless it has been sent',
  flags: (own) =>
    own
      .option('--dry-run', 'list who would get it; write nothing, send nothing')
      .option('--allow-flagged', 'send even if items fell back to the extractive writer or are flagged')
      .option('--allow-thin', 'send even if the edition has fewer items than selection.minItems')
      .option(
        '--resend-uncertain',
        'resend mails a killed run may or may not have delivered (default: not resent, a reader may miss one rather than get two)',
      )
      .option(
        '--correction',
        'mail the correction notice of the latest revision (what changed, links) to each reader sent an earlier one; needs --week',
      )
      .option(
        '--test <address>',
        'mail one "[Test]" copy to this address (the newest edition, or --week; a draft too): links count nothing, no reader is marked sent',
      )
      .option(
        '--at <iso-time>',
        'send at this time instead of now (e.g. 2026-05-11T08:00 in schedule.timeZone, or with Z / +02:00): `digest serve` performs it',
        isoTime,
      )
      .option('--cancel', "cancel the edition's scheduled send (the newest one waiting, or --week's)")
      .option(
        '--base-url <url>',
        'public site address for unsubscribe links (default: server.baseUrl, publish.baseUrl)',
      ),
  run: async (digest, { options, context }) => {
    if (options.test !== undefined) {
      const week = options.week ?? (await newestEdition(digest));
      const sent = await digest.sendTest({
        week,
        to: options.test,
        ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      });
      context.stdout.write(`Test of ${sent.week} sent to ${sent.to}: ${sent.response}\n`);
      return;
    }
    if (options.at !== undefined || options.cancel) return schedule(digest, options, context);
    const progress = progressLine(context.stderr);
    try {
      const outcome = await digest.send({
        ...(options.week ? { week: options.week } : {}),
        ...(options.dryRun ? { dryRun: true } : {}),
        ...(options.allowFlagged ? { allowFlagged: true } : {}),
        ...(options.allowThin ? { allowThin: true } : {}),
        ...(options.resendUncertain ? { resendUncertain: true } : {}),
        ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
        ...(options.correction ? { correction: true } : {}),
        onProgress: progress.update,
      });
      progress.end();
      // What was chosen, or that the newest published edition is sent already, was said on stderr.
      if (outcome.nothingToSend) return;
      if (outcome.dryRun) {
        for (const address of outcome.wouldSend) context.stdout.write(`${address}\n`);
        return;
      }
      context.stdout.write(report(outcome));
      if (!outcome.complete) context.exitCode = 3;
    } catch (error) {
      progress.end();
      // Not an error of the program: the edition, or the mail server, needs a look (exit 3).
      const needsALook = [FlaggedEditionError, ThinEditionError, SmtpUnreachableError];
      if (!(error instanceof Error) || !needsALook.some((kind) => error instanceof kind)) throw error;
      context.stderr.write(`${error.message}\n`);
      context.exitCode = 3;
    }
  },
});

/** `--at`: the send set for later (exit 2 on a time in the past, naming the flag); `--cancel`: exit 1 when none waits. */
async function schedule(digest: OpenDigest, options: SendCommandOptions, context: CliContext): Promise<void> {
  if (options.cancel) {
    const cancelled = await digest.cancelScheduledSend({ week: options.week });
    if (!cancelled) {
      context.stderr.write(`No scheduled send is waiting${options.week ? ` for ${options.week}` : ''}.\n`);
      context.exitCode = 1;
      return;
    }
    context.stdout.write(
      `Cancelled the send of ${cancelled.edition} set for ${cancelled.sendAt.toISOString()}.\n`,
    );
    return;
  }
  try {
    const set = await digest.scheduleSend({
      week: options.week,
      at: options.at ?? '',
      by: 'cli',
      allowFlagged: options.allowFlagged,
      allowThin: options.allowThin,
    });
    context.stdout.write(
      `The send of ${set.edition} is set for ${formatInZone(set.sendAt, set.timeZone)} ${set.timeZone} ` +
        `(UTC ${set.sendAt.toISOString()}); \`digest serve\` performs it. Cancel: ./digest send --cancel --week ${set.edition}\n`,
    );
  } catch (error) {
    if (error instanceof SendTimeError) throw new SendTimeError(`--at: ${error.message}`);
    if (!(error instanceof FlaggedEditionError || error instanceof ThinEditionError)) throw error;
    context.stderr.write(`${error.message}\n`);
    context.exitCode = 3;
  }
}

/** Commander's check of `--at`: the shape of a time; whether it is in the future is the use case's to say. */
function isoTime(value: string): string {
  if (!parseZonedTime(value, 'UTC')) throw new InvalidArgumentError('expected a time like 2026-05-11T08:00');
  return value;
}

/** The newest stored edition, published or a draft: what an editor tests before it goes out. */
async function newestEdition(digest: OpenDigest): Promise<string> {
  const { latestEdition } = await digest.storeStatus();
  if (!latestEdition)
    throw new NotReadyError('There is no edition to test yet: build one first (./digest build).');
  return latestEdition;
}

function report(outcome: SendOutcome): string {
  const { counts, run } = outcome;
  const rows: [string, number, string][] = [
    ['elsewhere', outcome.inFlightElsewhere, 'being sent by another `digest send` process'],
    ['sent', counts.sent, `${run.sent} in this run`],
    ['skipped', counts.skipped, 'unsubscribed or bounced before their mail'],
    ['failed', counts.failed - counts.retrying, `${run.bounced} address(es) marked bounced in this run`],
    [
      'retrying',
      counts.retrying + (outcome.inFlightElsewhere ? 0 : counts.queued),
      'temporary failures or rows left queued: run again',
    ],
    [
      'uncertain',
      counts.uncertain + (outcome.inFlightElsewhere ? 0 : counts.sending),
      'may or may not have arrived; not resent',
    ],
  ];
  const lines = [
    `${outcome.correction ? `Correction notice (revision ${outcome.correction})` : 'Edition'} ${outcome.week}:`,
  ];
  for (const [label, value, note] of rows) {
    lines.push(`  ${label.padEnd(10)}${String(value).padStart(8)}${value ? `   ${note}` : ''}`);
  }
  for (const row of outcome.uncertain) lines.push(`  ? ${row.address} (uncertain)`);
  for (const row of outcome.failed) {
    lines.push(`  ✗ ${row.address}: ${row.smtpResponse ?? 'failed'} (${row.attempts} attempt(s))`);
  }
  if (outcome.foundUncertain) {
    lines.push(
      `${outcome.foundUncertain} row(s) were left "sending" by a stopped run: their mails may have arrived. ` +
        'They are not resent; `digest send --resend-uncertain` resends them.',
    );
  }
  return `${lines.join('\n')}\n`;
}

/** A progress bar on a terminal; elsewhere (logs, CI) one line per 10%. Always on stderr. */
function progressLine(stream: NodeJS.WritableStream) {
  const tty = (stream as NodeJS.WriteStream).isTTY === true;
  let lastDecile = -1;
  let drawn = false;
  return {
    update(progress: SendProgress) {
      const share = progress.total ? Math.min(1, progress.done / progress.total) : 1;
      const text =
        `${Math.floor(share * 100)}% ${progress.done}/${progress.total} · sent ${progress.sent}` +
        `${progress.failed ? ` · failed ${progress.failed}` : ''}${progress.skipped ? ` · skipped ${progress.skipped}` : ''}` +
        `${progress.retrying ? ` · retrying ${progress.retrying}` : ''}`;
      if (tty) {
        const width = 24;
        const filled = Math.round(share * width);
        stream.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${text}\u001b[K`);
        drawn = true;
        return;
      }
      const decile = Math.floor(share * 10);
      if (decile > lastDecile) {
        lastDecile = decile;
        stream.write(`send: ${text}\n`);
      }
    },
    end() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}
