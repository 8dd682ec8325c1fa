// The error a delivery raises when a chat platform or mail service refuses or fails: its message has been
// cleared of every secret (webhook URL, token), so it can be printed and logged as it is.
export class DeliveryError extends Error {
  override name = 'DeliveryError';
  constructor(
    message: string,
    /** The HTTP status the service answered, when it answered. */
    readonly status?: number,
  ) {
    super(message);
  }
}
