import type { Logger } from '../core/ports.js';

/** Human log lines on stderr; debug lines only with --verbose. */
export function createCliLogger(stderr: NodeJS.WritableStream, verbose = false): Logger {
  return {
    info: (message) => stderr.write(`${message}\n`),
    warn: (message) => stderr.write(`warning: ${message}\n`),
    debug: (message) => {
      if (verbose) stderr.write(`debug: ${message}\n`);
    },
  };
}
