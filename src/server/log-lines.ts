// Request log lines written together: one write per turn of the event loop (or per 64 KB) instead of one per request.
// stderr and stdout are synchronous for files and pipes, so under load a write per request was a system call per
// request on the thread that answers them. Lines keep their order; `flush()` writes what waits (shutdown).

export interface LogLines {
  log(line: string): void;
  flush(): void;
}

export function batchedLogLines(write: (text: string) => void, maxBytes = 64 * 1024): LogLines {
  let pending: string[] = [];
  let bytes = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    bytes = 0;
    write(text);
  };
  return {
    log(line) {
      pending.push(`${line}\n`);
      bytes += line.length + 1;
      if (bytes >= maxBytes) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
