// Who is sending: "<host>/<pid>/<run>". A row held by a process of this host that no longer exists can be taken
// over at once; one held by another host waits for the lease (we cannot see its processes).
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

export function newClaimerId(): string {
  return `${hostname()}/${process.pid}/${randomBytes(4).toString('hex')}`;
}

/** The claimers (other than `self`) known to be gone: same host, and their process does not exist. */
export function deadClaimers(claimers: readonly string[], self: string): string[] {
  const host = hostname();
  return claimers.filter((claimer) => {
    if (claimer === self) return false;
    const match = /^(.*)\/(\d+)\/[0-9a-f]+$/.exec(claimer);
    if (!match || match[1] !== host) return false;
    const pid = Number(match[2]);
    // Another run of this very process is alive (a server sending while a job runs): the lease decides.
    if (pid === process.pid) return false;
    try {
      process.kill(pid, 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ESRCH';
    }
  });
}
