// Preloaded through NODE_OPTIONS into a benchmarked command and so into every node process it starts (an initdb
// child, a worker): on exit each appends its own peak RSS (MB) to DIGEST_BENCH_TREE_FILE. Their sum is the whole
// process tree's peak, or more (the peaks need not coincide): an upper bound, never an underestimate. A third field
// is the process's CPU time (user + system, s): on a shared machine it says what the command costs where wall time
// also counts the waiting.
import { appendFileSync } from 'node:fs';

process.on('exit', () => {
  const file = process.env.DIGEST_BENCH_TREE_FILE;
  if (!file) return;
  const { maxRSS, userCPUTime, systemCPUTime } = process.resourceUsage();
  const cpuSeconds = ((userCPUTime + systemCPUTime) / 1e6).toFixed(3);
  appendFileSync(file, `${process.pid} ${Math.round(maxRSS / 1024)} ${cpuSeconds}\n`);
});
