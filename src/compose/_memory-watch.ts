// The build process's memory as the operating system counts it. `--max-old-space-size` bounds only V8's heap, and
// what a runtime keeps outside it differs between Node.js lines: Node 26 decodes a large page into a string stored
// outside the heap, so a 60 MB page passes a 64 MB heap limit there and not on Node 20. The watch reads the child's
// resident memory and stops it past the heap limit plus what the runtime itself needs, on every line alike.
import { readFile } from 'node:fs/promises';

/**
 * What a build process holds beyond its JavaScript heap when it is idle or busy within its limit: Node's own code,
 * V8's young generation and compiled code, the loaded modules (about 100–150 MB on Node 20 to 26).
 */
export const RUNTIME_ALLOWANCE_MB = 160;
/** How often the resident memory is read: often enough to see a page being decoded, cheap (one small file). */
const INTERVAL_MS = 50;
const PAGE_BYTES = 4096;

/**
 * Calls `onOver` once when the process `pid` holds more than `memoryMb` + the runtime's allowance; returns the function
 * that ends the watch. Where the system has no /proc (not Linux), the heap limit alone applies.
 */
export function watchMemory(pid: number, memoryMb: number, onOver: () => void): () => void {
  const limitBytes = (memoryMb + RUNTIME_ALLOWANCE_MB) * 1024 * 1024;
  let reading = false;
  let over = false;
  const timer = setInterval(() => {
    if (reading || over) return;
    reading = true;
    residentBytes(pid)
      .then((bytes) => {
        if (bytes === null) return clearInterval(timer);
        if (bytes > limitBytes && !over) {
          over = true;
          onOver();
        }
      })
      .finally(() => {
        reading = false;
      });
  }, INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The resident memory of `pid` in bytes (/proc/<pid>/statm, its second field in pages), or null without /proc. */
async function residentBytes(pid: number): Promise<number | null> {
  try {
    const statm = await readFile(`/proc/${pid}/statm`, 'utf8');
    const pages = Number(statm.split(' ')[1]);
    return Number.isFinite(pages) ? pages * PAGE_BYTES : null;
  } catch {
    return null;
  }
}
