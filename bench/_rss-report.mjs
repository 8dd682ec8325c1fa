// Preloaded into a benchmarked CLI process: on exit, writes its own peak RSS (MB) to DIGEST_BENCH_RSS_FILE.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  const file = process.env.DIGEST_BENCH_RSS_FILE;
  if (file) writeFileSync(file, String(Math.round(process.resourceUsage().maxRSS / 1024)));
});
