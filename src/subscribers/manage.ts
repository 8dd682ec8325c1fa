// `digest subscribers list|add|remove|import|export`: the operator's side of the subscriber list. Addresses are
// normalised like the subscribe form's; a bulk import never re-subscribes someone who unsubscribed or bounced.

import { ADDRESS_PROBLEMS, normaliseAddress } from '../core/email-address.js';
import { ConfigError, NotFoundError } from '../core/errors.js';
import type { DigestDeps } from '../deps.js';
import type { MailProblem } from '../store/outbox.js';
import type { SubscriberStatus } from '../store/schema.js';
import type { Subscriber } from '../store/subscribers.js';

export const SUBSCRIBER_STATUSES: readonly SubscriberStatus[] = [
  'pending',
  'confirmed',
  'unsubscribed',
  'bounced',
];

export type PutResult =
  | { outcome: 'added' | 'confirmed' | 'unchanged'; subscriber: Subscriber }
  /** Unsubscribed or bounced: left so. The reader can subscribe again through the form. */
  | { outcome: 'kept'; subscriber: Subscriber };

export interface ImportReport {
  added: number;
  confirmed: number;
  unchanged: number;
  /** Left unsubscribed or bounced. */
  kept: number;
  duplicates: number;
  /** Lines that are not addresses, with their line number in the file (1 = the header). */
  invalid: { line: number; value: string; problem: string }[];
}

/** Every subscriber (of one status), a page at a time, so a long list never sits in memory at once. */
export async function* eachSubscriber(
  deps: DigestDeps,
  status?: SubscriberStatus,
): AsyncGenerator<Subscriber> {
  let afterId = 0;
  for (;;) {
    const page = await deps.store.listSubscribers({ afterId, limit: 1000, ...(status ? { status } : {}) });
    yield* page;
    if (page.length < 1000) return;
    afterId = page.at(-1)!.id;
  }
}

/** A subscriber as `digest subscribers list` shows them: with their latest mail when it has not gone out. */
export type ListedSubscriber = Subscriber & { mail?: Omit<MailProblem, 'subscriberId'> };

/** Every subscriber (of one status) with the confirmation or welcome mail that failed, waits or is uncertain. */
export async function* listSubscribersWithMail(
  deps: DigestDeps,
  status?: SubscriberStatus,
): AsyncGenerator<ListedSubscriber> {
  let page: Subscriber[] = [];
  const flush = async function* () {
    const problems = new Map(
      (await deps.store.mailProblems(page.map((entry) => entry.id))).map(({ subscriberId, ...mail }) => [
        subscriberId,
        mail,
      ]),
    );
    for (const subscriber of page) {
      const mail = problems.get(subscriber.id);
      yield mail ? { ...subscriber, mail } : subscriber;
    }
    page = [];
  };
  for await (const subscriber of eachSubscriber(deps, status)) {
    page.push(subscriber);
    if (page.length === 1000) yield* flush();
  }
  yield* flush();
}

/** One line's mail column: what became of the reader's latest mail, when it has not gone out. */
export function describeMail(mail: ListedSubscriber['mail']): string {
  if (!mail) return '';
  const reason = mail.lastError ? `: ${mail.lastError.slice(0, 200)}` : '';
  if (mail.state === 'failed') return `${mail.kind} mail failed${reason}`;
  if (mail.state === 'uncertain') return `${mail.kind} mail uncertain${reason}`;
  if (mail.attempts > 0 && mail.lastError)
    return `${mail.kind} mail retrying (${mail.attempts} attempts${reason})`;
  return `${mail.kind} mail waiting`;
}

export async function addSubscriber(
  deps: DigestDeps,
  input: { email: string; confirmed: boolean },
): Promise<PutResult> {
  const checked = normaliseAddress(input.email);
  if (!checked.ok) {
    throw new ConfigError(
      `email: ${ADDRESS_PROBLEMS[checked.problem]} (got ${JSON.stringify(input.email)}).`,
      [{ path: 'email', message: ADDRESS_PROBLEMS[checked.problem] }],
    );
  }
  return put(deps, checked.address, checked.mailbox, input.confirmed);
}

async function put(
  deps: DigestDeps,
  address: string,
  mailbox: string,
  confirmed: boolean,
): Promise<PutResult> {
  const { store } = deps;
  const existing = await store.getSubscriber({ address });
  if (!existing) {
    const subscriber = await store.putSubscriber(address, mailbox, confirmed ? 'confirmed' : 'pending');
    return { outcome: 'added', subscriber };
  }
  if (existing.status === 'unsubscribed' || existing.status === 'bounced') {
    return { outcome: 'kept', subscriber: existing };
  }
  if (confirmed && existing.status === 'pending') {
    const subscriber = await store.setSubscriberStatus(existing.id, 'confirmed', ['pending']);
    if (subscriber) return { outcome: 'confirmed', subscriber };
  }
  return { outcome: 'unchanged', subscriber: existing };
}

/** Deletes the person's row and their send-log rows. */
export async function removeSubscriber(deps: DigestDeps, input: { email: string }): Promise<string> {
  const checked = normaliseAddress(input.email);
  const address = checked.ok ? checked.address : input.email.trim();
  if (!(await deps.store.removeSubscriber(address))) {
    throw new NotFoundError(`No subscriber ${JSON.stringify(address)}: nothing removed.`);
  }
  return address;
}

/** A CSV with an `email` column (other columns ignored); each line added as pending, or confirmed. */
export async function importSubscribers(
  deps: DigestDeps,
  input: { csv: string; confirmed: boolean },
): Promise<ImportReport> {
  const rows = parseCsv(input.csv);
  const header = rows.shift();
  const column = header?.cells.findIndex((cell) => cell.trim().toLowerCase() === 'email') ?? -1;
  if (!header || column < 0) {
    throw new ConfigError(
      'The CSV needs a header line with an "email" column (e.g. "email" or "name,email").',
      [{ path: 'email', message: 'no email column in the header' }],
    );
  }
  const report: ImportReport = { added: 0, confirmed: 0, unchanged: 0, kept: 0, duplicates: 0, invalid: [] };
  const seen = new Set<string>();
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
    if (seen.has(checked.address)) {
      report.duplicates += 1;
      continue;
    }
    seen.add(checked.address);
    const result = await put(deps, checked.address, checked.mailbox, input.confirmed);
    report[result.outcome] += 1;
  }
  return report;
}

/** CSV lines of the list: `email,status,created_at,confirmed_at` (import reads the email column back). */
export async function* exportSubscribers(
  deps: DigestDeps,
  input: { status?: SubscriberStatus },
): AsyncGenerator<string> {
  yield 'email,status,created_at,confirmed_at\n';
  for await (const subscriber of eachSubscriber(deps, input.status)) {
    // Addresses are normalised dot-atoms (no comma, quote or line break), so no field needs quoting.
    yield `${subscriber.address},${subscriber.status},${subscriber.createdAt},${subscriber.confirmedAt ?? ''}\n`;
  }
}

/** RFC 4180 CSV: quoted fields may hold commas, quotes ("") and line breaks; a BOM is dropped. */
export function parseCsv(text: string): { line: number; cells: string[] }[] {
  const rows: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  const source = text.replace(/^\uFEFF/, '');
  for (let index = 0; index < source.length; index++) {
    const char = source[index]!;
    if (quoted) {
      if (char === '"' && source[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (char === '"') quoted = false;
      else {
        if (char === '\n') line++;
        cell += char;
      }
    } else if (char === '"' && cell === '') quoted = true;
    else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[index + 1] === '\n') index++;
      cells.push(cell);
      rows.push({ line: rowLine, cells });
      cells = [];
      cell = '';
      line++;
      rowLine = line;
    } else cell += char;
  }
  if (cell !== '' || cells.length) {
    cells.push(cell);
    rows.push({ line: rowLine, cells });
  }
  return rows;
}
