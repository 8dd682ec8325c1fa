import type { Logger } from '../core/ports.js';
import { redactUrls } from '../core/urls.js';
import { plainText } from './terminal.js';

/**
 * Human log lines on stderr; debug lines only with --verbose. URLs lose credentials and secret parameters, and
 * control characters that came in with a feed's text are shown, not obeyed.
 */
export function createCliLogger(stderr: NodeJS.WritableStream, verbose = false): Logger {
  return {
    info: (message) => stderr.write(`${plainText(redactUrls(message))}\n`),
    warn: (message) => stderr.write(`warning: ${plainText(redactUrls(message))}\n`),
    debug: (message) => {
      if (verbose) stderr.write(`debug: ${plainText(redactUrls(message))}\n`);
    },
  };
}
