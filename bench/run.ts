// `npm run bench`: every benchmark in its own process (so peak RSS is its own), then one table of figures.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pgliteFloor } from './_pglite-floor.js';

const here = dirname(fileURLToPath(import.meta.url));

interface Benchmark {
  name: string;
  file: string;
  exportName: string;
  /** Target per figure: [comparison, value]. */
  targets?: Record<string, ['<=' | '>=', number]>;
}

const BENCHMARKS: Benchmark[] = [
  {
    name: 'cli',
    file: 'cli.ts',
    exportName: 'benchCli',
    targets: {
      '--help / node -e 0': ['<=', 4],
      'sample build offline wall s': ['<=', 3],
      'sample build offline peak RSS MB': ['<=', 250],
      'sample build with fake LLM peak RSS MB': ['<=', 250],
      'list wall s': ['<=', 1],
      'list after LLM build: LLM calls': ['<=', 0],
      'list after LLM build: same picks as the build (1 = yes)': ['>=', 1],
    },
  },
  {
    name: 'quick-small',
    file: 'quick-small.ts',
    exportName: 'benchQuickSmall',
    targets: {
      'rebuild of the unchanged week wall s (median of 5)': ['<=', 1],
      'build without a model wall s (median of 5)': ['<=', 1],
      'build with a model, `./digest` (the README): tree peak MB': ['<=', 250],
      'serve under load, `./digest` (the README): tree peak MB': ['<=', 250],
      'serve idle RSS MB after 200 requests, `./digest serve` tree': ['<=', 200],
      'serve idle RSS MB after 200 requests and 20 /metrics scrapes, `./digest serve` tree': ['<=', 200],
      'dead local model: LLM calls made': ['<=', 1],
      'dead local model: lines naming the fix': ['<=', 1],
      'dead local model: wall s': ['<=', 5],
      'grammar engine: write calls above the bound': ['<=', 0],
      'grammar engine: most tokens in a write call': ['<=', 900],
    },
  },
  {
    name: 'first-run',
    file: 'first-run.ts',
    exportName: 'benchFirstRun',
    targets: {
      'demo, new folder: peak RSS MB (whole tree)': ['<=', 250],
      'demo, later run: peak RSS MB (whole tree)': ['<=', 250],
      'serve, new folder: peak RSS MB (whole tree)': ['<=', 250],
      'serve, later run: peak RSS MB (whole tree)': ['<=', 250],
    },
  },
  {
    name: 'ingest',
    file: 'ingest.ts',
    exportName: 'benchIngest',
    targets: {
      'stored items/s': ['>=', 3000],
      'overhead ratio (parse / stored)': ['<=', 3],
      'peak RSS MB': ['<=', 700],
    },
  },
  {
    name: 'store',
    file: 'store.ts',
    exportName: 'benchStore',
    targets: {
      'open store peak RSS MB': ['<=', 250],
      'listCandidates peak RSS MB (sample week)': ['<=', 250],
      'open store over the floor MB': ['<=', 50],
      'create store peak RSS MB (from the prepared copy)': ['<=', 250],
    },
  },
  {
    name: 'backup',
    file: 'backup.ts',
    exportName: 'benchBackup',
    // A write waits for the snapshot on PGlite (one session): at most a tenth of a second.
    targets: {
      'longest write wait during the backup ms (due → committed)': ['<=', 100],
      'snapshot held the database ms': ['<=', 100],
      '`digest backup` wall ms': ['<=', 10_000],
      '`digest backup` process tree peak MB': ['<=', 300],
      '`digest restore` process tree peak MB': ['<=', 300],
    },
  },
  {
    name: 'build',
    file: 'build.ts',
    exportName: 'benchBuild',
    targets: { 'build wall s (2,000 candidates)': ['<=', 3], 'peak RSS MB': ['<=', 700] },
  },
  {
    name: 'select',
    file: 'select.ts',
    exportName: 'benchSelect',
    targets: { 'select 2,000 candidates s': ['<=', 1], 'triage / writing tokens': ['<=', 0.3] },
  },
  {
    name: 'write',
    file: 'write.ts',
    exportName: 'benchWrite',
    targets: { 'wall / floor': ['<=', 1.5], 'rebuild calls': ['<=', 0], 'rebuild wall s': ['<=', 1] },
  },
  {
    name: 'full-text',
    file: 'full-text.ts',
    exportName: 'benchFullText',
    targets: { 'parse ms per page (mean of 3, one 1.3 MB)': ['<=', 500] },
  },
  {
    name: 'paper-html',
    file: 'paper-html.ts',
    exportName: 'benchPaperHtml',
    targets: {
      'one <p> with 4,000 links (0.3 MB) ms': ['<=', 200],
      'watermark of 80,000 "arXiv:" (0.5 MB) ms': ['<=', 200],
      '50,000 sections (5 MB) ms': ['<=', 1500],
      '12 MB page: links in one <p> ms': ['<=', 3000],
      '12 MB page: sections ms': ['<=', 3000],
      '12 MB page: paragraphs nested 250 deep ms': ['<=', 3000],
      '12 MB page: inline formulas ms': ['<=', 3000],
      '12 MB page: watermark ms': ['<=', 3000],
      'peak RSS MB': ['<=', 300],
    },
  },
  {
    name: 'post-page',
    file: 'post-page.ts',
    exportName: 'benchPostPage',
    targets: {
      '100,000 links in one <p> (5.3 MB) ms': ['<=', 3000],
      '12 MB post: links in one <p> ms': ['<=', 3000],
      '12 MB post: paragraphs ms': ['<=', 3000],
      '12 MB post: paragraphs nested 200 deep ms': ['<=', 3000],
      'peak RSS MB': ['<=', 300],
    },
  },
  {
    name: 'scheduled-build',
    file: 'scheduled-build.ts',
    exportName: 'benchScheduledBuild',
    targets: {
      '/healthz p99 ms during the build': ['<=', 100],
      '/healthz non-200 during the build': ['<=', 0],
      '/healthz answers during the build': ['>=', 10],
    },
  },
  {
    name: 'llm-llmClient',
    file: 'llm-llmClient.ts',
    exportName: 'benchLlmClient',
    targets: {
      'wall / floor': ['<=', 1.3],
      'rebuild after invalid answers: calls': ['<=', 0],
      'rebuild after invalid answers: wall s': ['<=', 1],
      'hung server: wall / timeout': ['<=', 2],
    },
  },
  {
    name: 'publish',
    file: 'publish.ts',
    exportName: 'benchPublish',
    targets: {
      'site wall s (520 editions)': ['<=', 10],
      'site republished through the swap wall s': ['<=', 12],
      'edition page KB': ['<=', 40],
      'email HTML KB': ['<=', 90],
    },
  },
  {
    name: 'desk',
    file: 'desk.ts',
    exportName: 'benchDesk',
    targets: { 'board render ms (2,000 candidates, median)': ['<=', 150] },
  },
  {
    name: 'send',
    file: 'send.ts',
    exportName: 'benchSend',
    targets: {
      'wall s (10,000 mails)': ['<=', 60],
      'personal / identical wall': ['<=', 2],
      'send RSS over idle MB': ['<=', 100],
      'after 3 kills: duplicates': ['<=', 0],
      'after 3 kills: missing': ['<=', 0],
    },
  },
  {
    name: 'scale',
    file: 'scale.ts',
    exportName: 'benchScale',
    targets: {
      'send 100,000: wall s': ['<=', 300],
      'send 100,000: peak RSS MB (the process tree: one process)': ['<=', 300],
      'send 100,000: RSS growth after the first 10,000 MB': ['<=', 20],
      'after 3 kills: duplicates': ['<=', 0],
      'after 3 kills: missing': ['<=', 0],
      'PostgreSQL two senders: duplicates': ['<=', 0],
      'PostgreSQL two senders: missing': ['<=', 0],
      'paced send: off the configured rate %': ['<=', 5],
      'stats 100,000 readers, 1,000,000 clicks: wall s': ['<=', 1],
      'reader history 100,000 readers: ms': ['<=', 500],
      'flush of 100k pending clicks (per reader): wall ms': ['<=', 1000],
      'flush of 100k pending clicks (per reader): longest event-loop block ms': ['<=', 20],
      'flush of 100k pending clicks (per reader): /r/ p99 ms at 1,000 clicks/s during it': ['<=', 20],
      'flush of 100k pending clicks (per reader, PostgreSQL): wall ms': ['<=', 1000],
      'flush of 100k pending clicks (per reader, PostgreSQL): longest event-loop block ms': ['<=', 20],
      'flush of 100k pending clicks (per reader, PostgreSQL): /r/ p99 ms at 1,000 clicks/s during it': [
        '<=',
        20,
      ],
      // The fold that follows has no deadline, but must not hold up the redirect either.
      'fold after the flush of 100k pending clicks (per reader): longest event-loop block ms': ['<=', 20],
      'fold after the flush of 100k pending clicks (per reader): /r/ p99 ms at 1,000 clicks/s during it': [
        '<=',
        20,
      ],
      'fold after the flush of 100k pending clicks (per reader, PostgreSQL): longest event-loop block ms': [
        '<=',
        20,
      ],
      'fold after the flush of 100k pending clicks (per reader, PostgreSQL): /r/ p99 ms at 1,000 clicks/s during it':
        ['<=', 20],
      'growth 10,000 → 100,000: send wall / linear': ['<=', 1.2],
      'growth 10,000 → 100,000: send CPU / linear': ['<=', 1.2],
      'growth 10,000 → 100,000: stats wall / linear': ['<=', 1.2],
      'growth 10,000 → 100,000: reader history / linear': ['<=', 1.2],
      'growth 10,000 → 100,000: readers list / linear': ['<=', 1.2],
      'growth 10,000 → 100,000: send CPU per mail, largest / smallest': ['<=', 1.2],
      'readers list 100,000 readers: first answer ms': ['<=', 200],
      'reader page 100,000 readers: first answer ms': ['<=', 200],
    },
  },
  {
    name: 'serve',
    file: 'serve.ts',
    exportName: 'benchServe',
    targets: {
      'serve / static req/s': ['>=', 0.5],
      'serve idle RSS MB': ['<=', 200],
      'non-2xx or errors': ['<=', 0],
    },
  },
  {
    name: 'clicks',
    file: 'clicks.ts',
    exportName: 'benchClicks',
    targets: {
      '/r/ first answer (302 = 1)': ['>=', 1],
      'flush of 100k pending clicks: wall ms': ['<=', 1000],
      'flush of 100k pending clicks: longest event-loop block ms': ['<=', 20],
      '/r/ p99 ms (100 clients, 1,000 clicks/s together)': ['<=', 20],
      '/r/ other answers, errors, unanswered (paced)': ['<=', 0],
      '/r/ p99 ms at 1,000 clicks/s while 100k reader clicks are written': ['<=', 20],
      '/r/ other answers, errors, unanswered (while written)': ['<=', 0],
      '100k reader clicks: reader rows stored': ['>=', 100_000],
      '100k clicks: heap growth MB': ['<=', 5],
    },
  },
  {
    name: 'rate-limits',
    file: 'rate-limits.ts',
    exportName: 'benchRateLimits',
    targets: {
      'one check p99 ms': ['<=', 2],
      'failed sign-in checks p99 ms': ['<=', 2],
    },
  },
  {
    name: 'subscribe',
    file: 'subscribe.ts',
    exportName: 'benchSubscribe',
    targets: {
      'subscribe p99 ms (100 clients)': ['<=', 50],
      'errors (100 clients)': ['<=', 0],
      'flood non-2xx or errors': ['<=', 0],
    },
  },
  {
    name: 'import',
    file: 'import.ts',
    exportName: 'benchImport',
    targets: {
      'import 100k rows, confirmation mails queued s': ['<=', 60],
      'import 100k rows, consent asserted s': ['<=', 60],
    },
  },
  {
    name: 'mcp-abuse',
    file: 'mcp-abuse.ts',
    exportName: 'benchMcpAbuse',
    targets: {
      'MCP abuse serve peak RSS MB': ['<=', 300],
      'RSS peak during the nested MCP flood MB': ['<=', 300],
      'healthz p99 ms during the nested MCP flood': ['<=', 100],
      'healthz p99 ms during MCP abuse': ['<=', 100],
    },
  },
  {
    name: 'search',
    file: 'search.ts',
    exportName: 'benchSearch',
    targets: {
      'search p95 ms': ['<=', 30],
      'API edition / static req/s': ['>=', 0.5],
      'API non-2xx or errors': ['<=', 0],
    },
  },
];

const only = process.argv.slice(2);
const floorMb = await pgliteFloor().catch(() => null);
const rows: string[][] = [];
const details: string[] = [];
let failed = false;
for (const bench of BENCHMARKS) {
  if (only.length && !only.includes(bench.name)) continue;
  const file = join(here, bench.file);
  if (!existsSync(file)) continue;
  process.stderr.write(`› ${bench.name} …\n`);
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(here, '_child.ts'), file, bench.exportName],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  const line = child.stdout.split('\n').find((text) => text.startsWith('@@BENCH '));
  if (child.status !== 0 || !line) {
    failed = true;
    rows.push([
      bench.name,
      'FAILED',
      (child.stderr || child.stdout).trim().split('\n').slice(-3).join(' | '),
      '',
      '',
    ]);
    continue;
  }
  const { figures, peakRssMb } = JSON.parse(line.slice('@@BENCH '.length)) as {
    figures: Record<string, number | string>;
    peakRssMb: number;
  };
  const all: Record<string, number | string> = { ...figures, 'peak RSS MB': peakRssMb };
  for (const [figure, value] of Object.entries(all)) {
    if (typeof value === 'string' && value.length > 40) {
      details.push(`${bench.name} · ${figure}: ${value}`);
      continue;
    }
    const target = bench.targets?.[figure];
    let verdict = '';
    if (target && typeof value === 'number') {
      const ok = target[0] === '<=' ? value <= target[1] : value >= target[1];
      verdict = ok ? 'ok' : 'MISSED';
    }
    // Every peak RSS is shown beside PGlite's own floor: what is left above it is ours.
    const shown =
      figure === 'peak RSS MB' && floorMb !== null
        ? `${formatValue(value)} (PGlite floor ${floorMb})`
        : formatValue(value);
    rows.push([bench.name, figure, shown, target ? `${target[0]} ${target[1]}` : '', verdict]);
  }
}

function formatValue(value: number | string): string {
  if (typeof value === 'string') return value;
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  return value.toLocaleString('en-US', { maximumFractionDigits: 3 });
}

const header = ['benchmark', 'figure', 'value', 'target', ''];
const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column]!.length)));
const format = (cells: string[]) =>
  `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
process.stdout.write(
  `${[format(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.map(format)].join('\n')}\n`,
);
if (details.length) process.stdout.write(`\n${details.join('\n')}\n`);
if (floorMb !== null)
  process.stdout.write(`\nPGlite floor (open an existing store + select 1): ${floorMb} MB peak RSS\n`);
process.stdout.write(`\nmachine: ${process.platform} ${process.arch}, node ${process.version}\n`);
if (failed) process.exitCode = 1;
