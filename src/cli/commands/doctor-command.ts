import type { Command } from 'commander';
import type { DoctorCheck, DoctorReport } from '../../setup/index.js';
import type { CliContext } from '../context.js';
import { nowOf } from '../options.js';
import { declareCommand } from './declarations.js';

interface DoctorOptions {
  config?: string;
  dataDir?: string;
  json?: boolean;
}

export const DOCTOR_HELP =
  '\nChecks, each with a short deadline (the whole run takes well under a minute):\n' +
  '  config valid · data folder writable and private · each source reachable\n' +
  '  the model: reachable, key accepted, one structured call (exactly 3 items asked) honoured,\n' +
  "    its latency and tokens/s, and from them this week's build time and cost · the embeddings model\n" +
  '  SMTP: connect + EHLO, STARTTLS, AUTH · the DKIM key · DNS records to publish (SPF, DKIM, DMARC)\n' +
  '  the base URL and DIGEST_SECRET';

const MARK = { ok: '✓', warn: '!', fail: '✗', skip: '-' } as const;

const labelOf = (entry: DoctorCheck) =>
  entry.area === entry.name ? entry.area : `${entry.area} ${entry.name}`;

function line(entry: DoctorCheck): string {
  const label = labelOf(entry);
  const fix =
    entry.fix && (entry.status === 'fail' || entry.status === 'warn') ? `\n    fix: ${entry.fix}` : '';
  return `${MARK[entry.status]} ${label}: ${entry.detail}${fix}\n`;
}

/** The report as printed by `digest doctor` (and by `digest init` at its end). */
export function formatDoctorReport(report: DoctorReport): string {
  let text = report.checks.map(line).join('');
  const estimate = report.estimate;
  if (estimate) {
    const minutes =
      estimate.wallSeconds >= 120
        ? `${Math.round(estimate.wallSeconds / 60)} min`
        : `${estimate.wallSeconds} s`;
    text +=
      `\nThis week's build with ${estimate.model} (rough): ${estimate.calls} calls, ` +
      `${estimate.tokensIn.toLocaleString('en-US')} tokens in / ${estimate.tokensOut.toLocaleString('en-US')} out, ` +
      `≈ ${minutes} with ${estimate.parallel} call(s) at once, ≈ $${estimate.costUsd.toFixed(2)}\n`;
  }
  if (report.dnsRecords.length) {
    text += `\nDNS records to publish for the sending domain:\n${report.dnsRecords.map((record) => `  ${record}\n`).join('')}`;
  }
  const named = report.problems.map((entry) => labelOf(entry));
  text += named.length ? `\n${named.length} problem(s): ${named.join(', ')}\n` : '\nAll is well.\n';
  return text;
}

export function register(program: Command, context: CliContext): void {
  declareCommand(program, 'doctor')
    .option('--config <file>', 'config file (default: digest.config.ts/.json in this folder)')
    .option('--data-dir <dir>', 'PGlite data folder (default ./data, or DIGEST_DATA_DIR)')
    .option('--json', 'machine-readable report')
    .addHelpText('after', DOCTOR_HELP)
    .action(async (options: DoctorOptions) => {
      const { doctor } = await import('../../setup/index.js');
      const report = await doctor({
        cwd: context.cwd,
        env: context.env,
        now: nowOf(context),
        ...(options.config ? { configFile: options.config } : {}),
        ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      });
      context.stdout.write(
        options.json ? `${JSON.stringify(report, null, 2)}\n` : formatDoctorReport(report),
      );
      if (report.problems.length) context.exitCode = 2;
    });
}
