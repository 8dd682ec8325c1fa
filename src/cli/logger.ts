import type { Logger } from '../core/ports.js';
import { redactUrls } from '../core/urls.js';

/** Human log lines on stderr; debug lines only with --verbose. URLs lose credentials and secret parameters. */
export function createCliLogger(stderr: NodeJS.WritableStream, verbose = false): Logger {
  return {
    info: (message) => stderr.write(`${redactUrls(message)}\n`),
    warn: (message) => stderr.write(`warning: ${redactUrls(message)}\n`),
    debug: (message) => {
      if (verbose) stderr.write(`debug: ${redactUrls(message)}\n`);
    },
  };
}
