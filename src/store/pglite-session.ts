// PGlite is one PostgreSQL session. Everyone who talks to it — this process's Kysely driver and, while `digest serve`
// shares the database, each client of its socket — must take the session in turn for a whole unit of work: a
// transaction, or an extended-protocol sequence up to its Sync. Otherwise one caller's statements land inside
// another's transaction, or replace its unnamed prepared statement. This is the one lock they all take.

/** A FIFO mutex: `acquire()` resolves with the function that releases it. */
export class SessionLock {
  #tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.#tail;
    this.#tail = previous.then(() => released);
    return previous.then(() => {
      let done = false;
      return () => {
        if (done) return;
        done = true;
        release();
      };
    });
  }
}

const locks = new WeakMap<object, SessionLock>();

/** The one session lock of a PGlite instance. */
export function sessionLock(pglite: object): SessionLock {
  let lock = locks.get(pglite);
  if (!lock) {
    lock = new SessionLock();
    locks.set(pglite, lock);
  }
  return lock;
}
