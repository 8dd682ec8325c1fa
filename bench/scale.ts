// `npm run bench -- scale`: a list of the size a successful newsletter reaches, on this machine. For each size
// (DIGEST_BENCH_SCALE_SIZES, default 10,000, 30,000 and 100,000 readers with mixed choices): one personal send through
// the counting sink (wall, CPU, peak RSS, memory after the first 10,000), then 10 click rows a reader over 26
// editions and `digest stats --json` and the ranking's reader history. At the largest size also: three SIGKILLs and
// a rerun, a flush of 100,000 pending clicks, and two senders sharing one send on PostgreSQL. A growth row per
// measure compares the largest size with the smallest scaled linearly (1 = linear). Last, a send paced at a
// configured rate. The desk's readers list and one reader's page are timed at each size too (the first answer of a
// desk just opened on the store). The machine's load average is printed beside the figures: on a shared machine
// wall time counts the waiting too, CPU time does not.
import { rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { timeReaderPages } from './_scale-desk.js';
import { killedSends, twoSendersOnPostgres } from './_scale-exactly-once.js';
import { flushAtSize } from './_scale-flush.js';
import { addReadingHistory, timeReaderHistory, timeStats } from './_scale-readers.js';
import { scaleFolder, timedSend, writeScaleConfig } from './_scale-send.js';
import { prepareScaleStore } from './_scale-store.js';
import { type Counter, newCounter, runDigest, startSink } from './_smtp-sink.js';

const SEND = { concurrency: 16, messagesPerSecond: 5000 };
// 30 s of mails at the configured rate (DIGEST_BENCH_SCALE_RATE: below what this machine can send, or the figure
// measures the machine, not the limit).
const RATE = Number(process.env.DIGEST_BENCH_SCALE_RATE ?? 200);
const PACED = { readers: RATE * 30, concurrency: 8, messagesPerSecond: RATE };
const CLICKS_PER_READER = 10;

/** What the growth rows compare between the smallest and the largest list. */
interface Measured {
  sendS: number;
  sendCpuS: number;
  statsS: number;
  historyMs: number;
  listMs: number;
}

const label = (size: number) => size.toLocaleString('en-US');
const round = (value: number, digits = 1) => Number(value.toFixed(digits));

export async function benchScale(): Promise<Record<string, number | string>> {
  const sizes = (process.env.DIGEST_BENCH_SCALE_SIZES ?? '10000,30000,100000').split(',').map(Number);
  const largest = Math.max(...sizes);
  const counter = newCounter();
  const sink = await startSink(counter);
  const figures: Record<string, number | string> = { 'load average at start': round(loadavg()[0]!, 2) };
  const measured = new Map<number, Measured>();
  try {
    for (const size of sizes) {
      const cwd = await scaleFolder();
      try {
        Object.assign(figures, await oneSize(cwd, counter, sink.port, size, measured));
        if (size === largest) Object.assign(figures, await largestOnly(cwd, counter, size));
        // A long run's figures so far, kept in the log should a later step fail.
        process.stderr.write(`scale: ${JSON.stringify(figures)}\n`);
      } finally {
        await rm(cwd, { recursive: true, force: true });
      }
    }
    Object.assign(figures, growthRows(measured), await pacedSend(counter, sink.port));
    const cwd = await scaleFolder();
    try {
      await writeScaleConfig(cwd, sink.port, SEND);
      Object.assign(figures, await twoSendersOnPostgres(cwd, counter, largest));
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  } finally {
    await sink.close();
  }
  figures['load average at end'] = round(loadavg()[0]!, 2);
  return figures;
}

async function oneSize(
  cwd: string,
  counter: Counter,
  port: number,
  size: number,
  measured: Map<number, Measured>,
): Promise<Record<string, number>> {
  const dataDir = join(cwd, 'data');
  await prepareScaleStore(dataDir, size);
  await writeScaleConfig(cwd, port, SEND);
  counter.counts.clear();
  counter.total = 0;
  const send = await timedSend(cwd, counter);
  if (counter.total !== size) throw new Error(`the send of ${size} delivered ${counter.total} mails`);
  await addReadingHistory(dataDir, size, size * CLICKS_PER_READER);
  const idle = await runDigest(cwd, ['subscribers', 'list', '--status', 'bounced']);
  const statsS = await timeStats(cwd);
  const historyMs = await timeReaderHistory(dataDir);
  // A reader from the middle of the list: their rows sit among everyone else's.
  const pages = await timeReaderPages(dataDir, Math.ceil(size / 2));
  measured.set(size, {
    sendS: send.wallS,
    sendCpuS: send.cpuS,
    statsS,
    historyMs,
    listMs: pages.listFirstMs,
  });
  const at = label(size);
  return {
    [`send ${at}: wall s`]: round(send.wallS),
    [`send ${at}: CPU s`]: round(send.cpuS),
    [`send ${at}: CPU ms per mail`]: round((send.cpuS * 1000) / size, 2),
    [`send ${at}: mails/s`]: Math.round(size / send.wallS),
    [`send ${at}: peak RSS MB (the process tree: one process)`]: Math.round(send.peakMb),
    ...(send.rssAt10kMb === null
      ? {}
      : {
          [`send ${at}: RSS growth after the first 10,000 MB`]: Math.round(
            send.rssAfter10kMb - send.rssAt10kMb,
          ),
        }),
    [`stats ${at} readers, ${label(size * CLICKS_PER_READER)} clicks: wall s`]: round(statsS, 2),
    [`stats ${at}: an idle digest command wall s (the floor)`]: round(idle.wallS, 2),
    [`reader history ${at} readers: ms`]: Math.round(historyMs),
    [`readers list ${at} readers: first answer ms`]: Math.round(pages.listFirstMs),
    [`readers list ${at} readers: later answers ms (median of 5)`]: Math.round(pages.listMs),
    [`reader page ${at} readers: first answer ms`]: Math.round(pages.readerFirstMs),
    [`reader page ${at} readers: later answers ms (median of 5)`]: Math.round(pages.readerMs),
  };
}

/** The kills and reruns, and a flush of 100,000 pending clicks, on the largest list. */
async function largestOnly(cwd: string, counter: Counter, size: number): Promise<Record<string, number>> {
  return { ...(await killedSends(cwd, counter, size)), ...(await flushAtSize(join(cwd, 'data'), 100_000)) };
}

/** Largest over smallest scaled linearly: 1 is linear; above 1 each reader costs more as the list grows. */
function growthRows(measured: Map<number, Measured>): Record<string, number> {
  const sizes = [...measured.keys()].sort((a, b) => a - b);
  if (sizes.length < 2) return {};
  const small = measured.get(sizes[0]!)!;
  const large = measured.get(sizes.at(-1)!)!;
  const scale = sizes.at(-1)! / sizes[0]!;
  const span = `${label(sizes[0]!)} → ${label(sizes.at(-1)!)}`;
  return {
    [`growth ${span}: send wall / linear`]: round(large.sendS / (small.sendS * scale), 2),
    [`growth ${span}: send CPU / linear`]: round(large.sendCpuS / (small.sendCpuS * scale), 2),
    [`growth ${span}: stats wall / linear`]: round(large.statsS / (small.statsS * scale), 2),
    [`growth ${span}: reader history / linear`]: round(large.historyMs / (small.historyMs * scale), 2),
    [`growth ${span}: readers list / linear`]: round(large.listMs / (small.listMs * scale), 2),
    // 1 is flat: each mail costs the same whatever the list's length.
    [`growth ${span}: send CPU per mail, largest / smallest`]: round(
      large.sendCpuS / scale / small.sendCpuS,
      2,
    ),
  };
}

/** A send paced at publish.email.send.messagesPerSecond: the rate the sink saw, off the configured one in %. */
async function pacedSend(counter: Counter, port: number): Promise<Record<string, number>> {
  const cwd = await scaleFolder();
  try {
    await prepareScaleStore(join(cwd, 'data'), PACED.readers);
    await writeScaleConfig(cwd, port, {
      concurrency: PACED.concurrency,
      messagesPerSecond: PACED.messagesPerSecond,
    });
    counter.counts.clear();
    counter.total = 0;
    const send = await timedSend(cwd, counter);
    return {
      [`paced send at ${PACED.messagesPerSecond}/s: mails/s at the sink`]: round(send.sinkRate),
      'paced send: off the configured rate %': round(
        (Math.abs(send.sinkRate - PACED.messagesPerSecond) / PACED.messagesPerSecond) * 100,
      ),
    };
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}
