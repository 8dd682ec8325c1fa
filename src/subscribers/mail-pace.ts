// The outbox's pace: mails start evenly spaced at `messagesPerSecond`, never in a burst, so a list imported at once
// reaches the SMTP provider at the rate it allows. A turn that comes late is not made up by a burst afterwards.

export interface MailPace {
  /** Milliseconds until the next mail may start (0: now); takes no turn. */
  due(): number;
  /** Takes the next turn: milliseconds to wait before starting the mail. */
  take(): number;
}

/** `now`: a monotonic clock in milliseconds (the pace is about real time, not the digest's clock). */
export function createMailPace(perSecond: number, now: () => number = () => performance.now()): MailPace {
  const spacing = 1000 / perSecond;
  let next = Number.NEGATIVE_INFINITY;
  return {
    due: () => Math.max(0, next - now()),
    take() {
      const at = Math.max(now(), next);
      next = at + spacing;
      return at - now();
    },
  };
}

/** Mails claimed at once: about a second's worth, so none waits long in a claim it holds (and the lease holds). */
export function claimSize(perSecond: number, most: number): number {
  return Math.max(1, Math.min(most, Math.floor(perSecond)));
}
