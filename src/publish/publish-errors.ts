// Raised when an edition cannot be turned into files (a date that is not a safe path, an unwritable folder).
export class PublishError extends Error {
  override name = 'PublishError';
}
