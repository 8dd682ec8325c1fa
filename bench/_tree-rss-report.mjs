// Preloaded through NODE_OPTIONS into a benchmarked command and so into every node process it starts (an initdb
// child, a worker): on exit each appends its own peak RSS (MB) to DIGEST_BENCH_TREE_FILE. Their sum is the whole
// process tree's peak, or more (the peaks need not coincide): an upper bound, never an underestimate.
import { appendFileSync } from 'node:fs';

process.on('exit', () => {
  const file = process.env.DIGEST_BENCH_TREE_FILE;
  if (file) appendFileSync(file, `${process.pid} ${Math.round(process.resourceUsage().maxRSS / 1024)}\n`);
});
