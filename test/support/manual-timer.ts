// A timer that moves only when a test says so: deadlines and progress ticks run on advance(), never on a loaded
// machine's schedule, so a test of "what happens at the deadline" cannot pass or fail by how busy the host is.
import type { Timer } from '../../src/core/clock.js';

export interface ManualTimer extends Timer {
  /** Moves time on by `ms`, running every wait that falls due on the way (in due order, ties in set order). */
  advance(ms: number): void;
  /** Waits set and neither run nor cancelled. */
  readonly pending: number;
}

export function manualTimer(): ManualTimer {
  let time = 0;
  let order = 0;
  const waits = new Map<number, { due: number; callback: () => void }>();
  const next = () => {
    let first: [number, { due: number; callback: () => void }] | undefined;
    for (const entry of waits) if (!first || entry[1].due < first[1].due) first = entry;
    return first;
  };
  return {
    now: () => time,
    after(ms, callback) {
      const id = order++;
      waits.set(id, { due: time + Math.max(0, ms), callback });
      return () => waits.delete(id);
    },
    advance(ms) {
      const until = time + ms;
      for (let due = next(); due && due[1].due <= until; due = next()) {
        waits.delete(due[0]);
        time = due[1].due;
        due[1].callback();
      }
      time = until;
    },
    get pending() {
      return waits.size;
    },
  };
}
