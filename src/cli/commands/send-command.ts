import type { OpenDigest } from '../../compose/index.js';
import { FlaggedEditionError } from '../../core/edition-flags.js';
import { ThinEditionError } from '../../core/edition-thin.js';
import { NotReadyError, SmtpUnreachableError } from '../../core/errors.js';
import type { SendInput, SendOutcome, SendProgress } from '../../subscribers/index.js';
import { type WeekOptions, weekCommand } from '../options.js';

interface SendCommandOptions
  extends WeekOptions,
    Pick<SendInput, 'dryRun' | 'allowFlagged' | 'allowThin' | 'resendUncertain' | 'baseUrl' | 'correction'> {
  test?: string;
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
