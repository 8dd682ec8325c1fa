// `digest subscribers import` and the desk's import: a CSV with an `email` column. By default each new address is
// pending and gets a confirmation mail through the outbox (the subscribe form's double opt-in); with consent
// asserted (`--confirmed`, the desk's box) it is confirmed at once, recorded with who asserted it and when. An
// import never re-subscribes someone who unsubscribed or bounced, and reports every line it skipped. Rows go to the
// store in batches, one transaction each, so 100,000 lines take a few hundred statements, not 100,000.

import type { Config } from '../config/config-schema.js';
import { ADDRESS_PROBLEMS, normaliseAddress } from '../core/email-address.js';
import { ConfigError } from '../core/errors.js';
import type { ImportOutcome } from '../store/readers.js';
import { CONFIRMATION_WINDOW_SECONDS } from './intake.js';
import { parseCsv } from './parse-csv.js';
import type { AddReadersDeps } from './ports.js';
import { subscriptionSettings } from './subscription-settings.js';

const IMPORT_BATCH = 1000;

export interface ImportReport {
  /** New readers: pending with a confirmation mail queued, or confirmed on asserted consent. */
  added: number;
  /** Confirmation mails queued (new readers, and pending ones who had none within the hour). */
  mailed: number;
  /** Pending readers confirmed on asserted consent. */
  confirmed: number;
  /** Already pending or confirmed: left as they were. */
  alreadySubscribed: number;
  /** Unsubscribed or bounced: left so; only the reader can come back, through the form. */
  alreadyUnsubscribed: number;
  /** Lines whose inbox an earlier line of the file already named. */
  duplicates: number;
  /** Lines that are not addresses, with their line number in the file (1 = the header). */
  invalid: { line: number; value: string; problem: string }[];
  /** Who asserted the readers' consent, or null when each got a confirmation mail. */
  consentBy: string | null;
}

const COUNTED: Record<ImportOutcome, 'added' | 'confirmed' | 'alreadySubscribed' | 'alreadyUnsubscribed'> = {
  added: 'added',
  confirmed: 'confirmed',
  subscribed: 'alreadySubscribed',
  unsubscribed: 'alreadyUnsubscribed',
};

/**
 * A CSV with an `email` column (other columns ignored). `consentBy`: who asserts consent; null to mail each. `by`:
 * who imports (the readers' status history names them).
 */
export async function importSubscribers(
  deps: AddReadersDeps,
  input: { csv: string; consentBy: string | null; by?: string | undefined },
): Promise<ImportReport> {
  if (!input.consentBy) requireConfirmationMail(deps.config);
  const { rows, column } = emailColumn(input.csv);
  const report: ImportReport = {
    added: 0,
    mailed: 0,
    confirmed: 0,
    alreadySubscribed: 0,
    alreadyUnsubscribed: 0,
    duplicates: 0,
    invalid: [],
    consentBy: input.consentBy,
  };
  const seen = new Set<string>();
  let batch: { address: string; mailbox: string }[] = [];
  const flush = async () => {
    const { outcomes, queued } = await deps.store.readers.importBatch(batch, {
      consentBy: input.consentBy,
      windowSeconds: CONFIRMATION_WINDOW_SECONDS,
      source: { kind: 'import', by: input.by ?? null },
    });
    for (const outcome of outcomes) report[COUNTED[outcome]] += 1;
    report.mailed += queued;
    batch = [];
  };
  for (const row of rows) {
    const value = row.cells[column] ?? '';
    if (row.cells.every((cell) => !cell.trim())) continue;
    const checked = normaliseAddress(value);
    if (!checked.ok) {
      report.invalid.push({
        line: row.line,
        value: value.slice(0, 100),
        problem: ADDRESS_PROBLEMS[checked.problem],
      });
      continue;
    }
    if (seen.has(checked.mailbox)) {
      report.duplicates += 1;
      continue;
    }
    seen.add(checked.mailbox);
    batch.push({ address: checked.address, mailbox: checked.mailbox });
    if (batch.length === IMPORT_BATCH) await flush();
  }
  await flush();
  return report;
}

/**
 * A reader added without asserted consent waits for their confirmation mail: without SMTP and a public base URL
 * (for the link) none can go out, and they would stay pending for good. A ConfigError naming what to set instead.
 */
export function requireConfirmationMail(config: Config): void {
  if (confirmationMailReady(config)) return;
  const settings = subscriptionSettings(config);
  const path = settings ? 'publish.email.smtp' : 'server.baseUrl';
  throw new ConfigError(
    `A confirmation mail cannot go out: set ${path}, or assert that the readers consented (--confirmed on the command line, the consent box on the desk).`,
    [{ path, message: 'required to mail confirmation links' }],
  );
}

/** True when a confirmation mail can go out: SMTP, and a public base URL for its link. */
export function confirmationMailReady(config: Config): boolean {
  return subscriptionSettings(config)?.canMail === true;
}

/** The rows after the header, and which column holds the addresses; a ConfigError when no header names one. */
function emailColumn(csv: string) {
  const rows = parseCsv(csv);
  const header = rows.shift();
  const column = header?.cells.findIndex((cell) => cell.trim().toLowerCase() === 'email') ?? -1;
  if (!header || column < 0) {
    throw new ConfigError(
      'The CSV needs a header line with an "email" column (e.g. "email" or "name,email").',
      [{ path: 'email', message: 'no email column in the header' }],
    );
  }
  return { rows, column };
}

/** The report in one line, each outcome named (the CLI's output, the desk's notice). */
export function describeImport(report: ImportReport): string {
  const added = report.consentBy
    ? `${report.added} added as confirmed (consent asserted by ${report.consentBy})`
    : `${report.added} added and sent a confirmation mail`;
  return [
    added,
    ...(report.consentBy
      ? [`${report.confirmed} pending confirmed`]
      : [`${report.mailed} confirmation mail(s) queued`]),
    `${report.alreadySubscribed} already subscribed`,
    `${report.alreadyUnsubscribed} already unsubscribed or bounced (left so)`,
    `${report.duplicates} duplicate(s)`,
    `${report.invalid.length} invalid line(s)`,
  ].join(', ');
}
