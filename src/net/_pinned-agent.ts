// Connections pinned to checked addresses: the host is resolved once, inside the connection, every address it
// resolved to is checked, and the socket connects only to those addresses. A refusal is raised before any socket
// is opened, and every redirect hop opens its connections through the same check.
// undici loads with the first agent (the first request), not with the client: a command that asks the network
// nothing (an offline build, a rebuild) never pays for its ~100 modules.
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import type { Agent, buildConnector } from 'undici';
import { type HostLookup, isAllowedAddress, refusal } from './ssrf-guard.js';

export interface PinnedAgentOptions {
  /** Check every address (untrusted requests); false for configured source URLs, which may point anywhere. */
  guard: boolean;
  allowLoopback: boolean;
  lookup: HostLookup;
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/** A node `lookup` that asks `resolve` once and refuses the host when any of its addresses is not allowed. */
export function pinnedLookup(options: PinnedAgentOptions) {
  return (hostname: string, lookupOptions: LookupOptions, callback: LookupCallback): void => {
    options.lookup(hostname).then(
      (resolved) => {
        if (!resolved.length) {
          callback(Object.assign(new Error(`${hostname} has no addresses`), { code: 'ENOTFOUND' }), []);
          return;
        }
        if (options.guard) {
          const bad = resolved.find((entry) => !isAllowedAddress(entry.address, options.allowLoopback));
          if (bad) {
            callback(refusal(hostname, bad.address), []);
            return;
          }
        }
        const family = typeof lookupOptions.family === 'number' ? lookupOptions.family : 0;
        const usable = family ? resolved.filter((entry) => entry.family === family) : resolved;
        const addresses = usable.length ? usable : resolved;
        if (lookupOptions.all) callback(null, addresses);
        else callback(null, addresses[0]?.address ?? '', addresses[0]?.family ?? 4);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), []),
    );
  };
}

/** An undici Agent whose every connection goes through pinnedLookup (and literal-IP hosts through the check). */
export async function createPinnedAgent(options: PinnedAgentOptions): Promise<Agent> {
  const { Agent, buildConnector } = await import('undici');
  const connectTo = buildConnector({ lookup: pinnedLookup(options) as never });
  const connect: buildConnector.connector = (target, callback) => {
    // Node skips `lookup` for literal addresses, so they are checked here, before a socket exists.
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (options.guard && isIP(host) && !isAllowedAddress(host, options.allowLoopback)) {
      callback(refusal(host, host), null);
      return;
    }
    connectTo(target, callback);
  };
  return new Agent({ connect });
}
