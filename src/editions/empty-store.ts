// What a command says when the store holds nothing for it: which command fills it, with flags that work offline.
import type { StatusStore } from './ports.js';

/** The two ways to fill a store: the sample week needs no network, a real week fetches the sources. */
export function fillTheStore(week = '<date>'): string {
  return `"./digest demo" stores the bundled sample week (offline, no flags needed), or "./digest build --week ${week}" fetches a week from your sources`;
}

export interface StoreStatus {
  /** Nothing was ever ingested or built here (a new data folder, or not the one meant). */
  empty: boolean;
  /** The newest stored edition's date, published or not. */
  latestEdition: string | null;
}

export async function storeStatus(store: StatusStore): Promise<StoreStatus> {
  const [run, editions] = await Promise.all([store.ingestRuns.last(), store.editions.list({ limit: 1 })]);
  const latestEdition = editions[0]?.date ?? null;
  return { empty: run === null && latestEdition === null, latestEdition };
}
