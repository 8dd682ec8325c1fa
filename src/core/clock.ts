// The clock port: the one place that reads the wall clock. Use cases take a Clock (tests pass a fixed one); the
// few infrastructure stamps with no use case around them (log lines, lock heartbeats) read systemClock.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
