// The weekly build inside the real `digest serve`: a loopback "arXiv" serves the week's two hostile papers
// (one paragraph of 4,000 links, a watermark of 80,000 "arXiv:"), and /healthz is asked one request after another
// while the scheduled build runs in its own process: the answers' p99 and slowest while it ran, and the build's time.
import { type Cleanup, watchedHostileBuild } from '../test/support/hostile-week.js';

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN;
}

export async function benchScheduledBuild(): Promise<Record<string, number | string>> {
  const cleanup: Cleanup = [];
  try {
    const { answers, buildMs } = await watchedHostileBuild(cleanup);
    const during = answers.filter((answer) => answer.during).map((answer) => answer.ms);
    return {
      'scheduled build of the hostile week s': Math.round(buildMs / 100) / 10,
      '/healthz answers during the build': during.length,
      '/healthz non-200 during the build': answers.filter((answer) => answer.status !== 200).length,
      '/healthz p99 ms during the build': Math.round(percentile(during, 0.99) * 10) / 10,
      '/healthz slowest ms during the build': Math.round(Math.max(...during) * 10) / 10,
    };
  } finally {
    for (const step of cleanup.reverse()) await step().catch(() => {});
  }
}
