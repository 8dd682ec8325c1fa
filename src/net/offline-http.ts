// The HTTP client of an `--offline` run: it refuses every request before any connection is made, so offline means
// no network request whatever a stage tries (the stages that would fetch are also skipped up front, and say so).
import { UnreachableError } from '../core/errors.js';
import type { HttpClient } from '../core/ports.js';
import { displayUrl } from '../core/urls.js';

export const offlineHttpClient: HttpClient = {
  async request(request) {
    throw new UnreachableError(
      `--offline: no network request is made (refused ${request.label ?? displayUrl(request.url)})`,
      { url: request.label ?? request.url },
    );
  },
};
