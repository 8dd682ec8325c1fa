// A few named errors. Messages say what to do next; only the CLI maps them to exit codes.

/**
 * The base of an error class whose `name` (what logs and stack traces show) is written once:
 * `export class WriterError extends namedError('WriterError') {}`.
 */
export function namedError(name: string) {
  return class extends Error {
    override name = name;
  };
}

export class ConfigError extends namedError('ConfigError') {
  constructor(
    message: string,
    readonly issues: { path: string; message: string }[] = [],
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * A model provider refused the key (HTTP 401/403): the build stops like a missing key does (exit 2), because every
 * further call would fail the same way and the edition would go out extractive by accident.
 */
export class CredentialError extends ConfigError {
  override name = 'CredentialError';
}

export class SourceError extends namedError('SourceError') {
  constructor(
    message: string,
    readonly sourceId?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Raised by the HTTP client: status is set for HTTP errors, undefined for network/timeout/guard errors. */
export class FetchError extends namedError('FetchError') {
  readonly url: string;
  readonly status?: number;

  constructor(message: string, { url, status, ...options }: { url: string; status?: number } & ErrorOptions) {
    super(message, options);
    this.url = url;
    this.status = status;
  }
}

/** A URL refused by the SSRF guard (non-public address, bad scheme). */
export class BlockedUrlError extends FetchError {
  override name = 'BlockedUrlError';
}

/**
 * The network itself is missing: the host name does not resolve, nothing listens, no route. Not retried, and a
 * source stops asking (other days of the same list would fail the same way).
 */
export class UnreachableError extends FetchError {
  override name = 'UnreachableError';
}

export class WriterError extends namedError('WriterError') {}

export class StoreError extends namedError('StoreError') {}

/** Nothing to build: every source failed, or the week has no candidates. */
export class BuildError extends namedError('BuildError') {}

/** The thing asked for does not exist (an item, an edition): bad input, not a crash. */
export class NotFoundError extends namedError('NotFoundError') {}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
