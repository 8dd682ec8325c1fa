// `digest subscribers import`: a CSV with an `email` column, each address added as pending or confirmed. A bulk
// import never re-subscribes someone who unsubscribed or bounced (putSubscriber), and reports every line it skipped.
import { ADDRESS_PROBLEMS, normaliseAddress } from '../core/email-address.js';
import { ConfigError } from '../core/errors.js';
import { type ImportReport, putSubscriber } from './manage.js';
import type { ReadersDeps } from './ports.js';

type CsvRow = { line: number; cells: string[] };

/** A CSV with an `email` column (other columns ignored); each line added as pending, or confirmed. */
export async function importSubscribers(
  deps: ReadersDeps,
  input: { csv: string; confirmed: boolean },
): Promise<ImportReport> {
  const { rows, column } = emailColumn(input.csv);
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
    if (seen.has(checked.mailbox)) {
      report.duplicates += 1;
      continue;
    }
    seen.add(checked.mailbox);
    const result = await putSubscriber({
      deps,
      address: checked.address,
      mailbox: checked.mailbox,
      confirmed: input.confirmed,
    });
    report[result.outcome] += 1;
  }
  return report;
}

/** The rows after the header, and which column holds the addresses; a ConfigError when no header names one. */
function emailColumn(csv: string): { rows: CsvRow[]; column: number } {
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

/** RFC 4180 CSV: quoted fields may hold commas, quotes ("") and line breaks; a BOM is dropped. */
function parseCsv(text: string): CsvRow[] {
  const rows: CsvRow[] = [];
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
