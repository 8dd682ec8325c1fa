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
  readonly status?: number | undefined;

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

/** An edition that cannot be turned into files (a date that is not a safe path, an unwritable folder). */
export class PublishError extends namedError('PublishError') {}

/**
 * A chat platform or mail service refused or failed: its message has been cleared of every secret (webhook URL,
 * token), so it can be printed and logged as it is.
 */
export class DeliveryError extends namedError('DeliveryError') {
  constructor(
    message: string,
    /** The HTTP status the service answered, when it answered. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Nothing to build: every source failed, or the week has no candidates. */
export class BuildError extends namedError('BuildError') {}

/** Why a build's own process ended without its outcome: its deadline, its memory limit, a crash, the server stopping. */
export type BuildStopReason = 'deadline' | 'memory' | 'crash' | 'stopping';

/** A build run in its own process (`digest serve`'s schedule and desk) that was stopped or died; nothing it wrote half-way is kept. */
export class BuildStoppedError extends BuildError {
  override name = 'BuildStoppedError';
  constructor(
    message: string,
    readonly reason: BuildStopReason,
  ) {
    super(message);
  }
}

/**
 * An earlier step has not been done: no edition for the week yet, or not published. Exit 1 like BuildError (nothing
 * was done; the message names the step), not 2: the input was fine.
 */
export class NotReadyError extends namedError('NotReadyError') {}

/** The thing asked for does not exist (an item, a subscriber): bad input, not a crash. */
export class NotFoundError extends namedError('NotFoundError') {}

/**
 * A change asked of an edition that is published or already mailed (editions/edition-guard.ts). `unchanged`: the
 * request would only have rebuilt it as it is (a plain `digest build` of that week), so nothing is wrong and the
 * CLI exits 0; otherwise it is refused (exit 2, desk 409) and the message names the correction command.
 */
export class PublishedEditionError extends namedError('PublishedEditionError') {
  constructor(
    message: string,
    readonly week: string,
    readonly unchanged = false,
  ) {
    super(message);
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * No connection to the SMTP server could be made (refused, or timed out before its greeting) within the send's
 * bounded tries: nothing was sent or marked, and the CLI exits 3 naming the server and `digest doctor`.
 */
export class SmtpUnreachableError extends namedError('SmtpUnreachableError') {}
