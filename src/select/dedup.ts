// One item per real-world thing: candidates sharing an arXiv id, a canonical URL or a near-identical title
// become one, built on the paper (its metadata, its first source as primary) with the others as extra sources.
import { arxivIdFromUrl, canonicalUrl } from '../core/ids.js';
import { mergeItems } from '../core/item-merge-policy.js';
import type { StoredItem } from '../core/types.js';

/** Jaccard similarity of title shingles at or above which two titles name the same thing. */
export const TITLE_DUPLICATE_THRESHOLD = 0.8;
/** Titles shorter than this (in words) only merge on identity, never on title likeness. */
const MIN_TITLE_WORDS = 3;

export interface DedupResult {
  items: StoredItem[];
  /** Key of every merged-away candidate → key of the item it now belongs to. */
  aliases: Map<string, string>;
}

function titleWords(title: string): string[] {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\$[^$]*\$/g, ' ')
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((word) =>
      word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word,
    );
}

/** Word bigrams of a normalised title (unigrams too, so word order changes still overlap). */
export function titleShingles(title: string): Set<string> {
  const words = titleWords(title);
  const shingles = new Set<string>(words);
  for (let index = 1; index < words.length; index++) shingles.add(`${words[index - 1]} ${words[index]}`);
  return shingles;
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const value of a) if (b.has(value)) shared++;
  return shared / (a.size + b.size - shared);
}

/** jaccard(a, b) ≥ threshold, stopping as soon as too many misses make it impossible. */
function jaccardAtLeast(a: Set<string>, b: Set<string>, threshold: number): boolean {
  // J ≥ t ⇔ shared ≥ t(|a| + |b|) / (1 + t)
  const needed = Math.ceil((threshold * (a.size + b.size)) / (1 + threshold) - 1e-9);
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  let left = small.size;
  for (const value of small) {
    left--;
    if (large.has(value)) shared++;
    else if (shared + left < needed) return false;
  }
  return shared >= needed;
}

/** 2: the paper's own page (arXiv, HF papers, a mirror); 1: a post that names a paper; 0: anything else. */
function paperRank(item: StoredItem): number {
  if (arxivIdFromUrl(item.url) !== null) return 2;
  return item.arxivId !== null ? 1 : 0;
}

/** The member whose metadata the merged item keeps: the paper first, then the best-sourced, then the oldest. */
function compareBase(a: StoredItem, b: StoredItem): number {
  if (paperRank(a) !== paperRank(b)) return paperRank(b) - paperRank(a);
  if (a.sources.length !== b.sources.length) return b.sources.length - a.sources.length;
  if (a.firstSeenAt !== b.firstSeenAt) return a.firstSeenAt < b.firstSeenAt ? -1 : 1;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** The group as one item: built on the paper (see compareBase), the others folded in by the one merge policy. */
function mergeGroup(group: StoredItem[]): StoredItem {
  const [base, ...others] = [...group].sort(compareBase);
  if (!base) throw new Error('mergeGroup needs at least one item');
  return others.reduce(mergeItems, base);
}

class DisjointSets {
  private readonly parent: number[];
  constructor(size: number) {
    this.parent = Array.from({ length: size }, (_, index) => index);
  }
  find(index: number): number {
    let root = index;
    while (this.parent[root] !== root) root = this.parent[root] ?? root;
    this.parent[index] = root;
    return root;
  }
  union(a: number, b: number): void {
    const rootA = this.find(a);
    const rootB = this.find(b);
    if (rootA !== rootB) this.parent[Math.max(rootA, rootB)] = Math.min(rootA, rootB);
  }
}

export function dedupCandidates(
  candidates: StoredItem[],
  options: { titleThreshold?: number } = {},
): DedupResult {
  const threshold = options.titleThreshold ?? TITLE_DUPLICATE_THRESHOLD;
  const items = [...candidates].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const sets = new DisjointSets(items.length);
  const byIdentity = new Map<string, number>();
  const link = (identity: string, index: number) => {
    const seen = byIdentity.get(identity);
    if (seen === undefined) byIdentity.set(identity, index);
    else sets.union(seen, index);
  };
  items.forEach((item, index) => {
    if (item.arxivId) link(`arxiv:${item.arxivId}`, index);
    link(`url:${item.canonicalUrl || canonicalUrl(item.url)}`, index);
    link(`key:${item.key}`, index);
  });
  linkNearDuplicateTitles(items, sets, threshold);
  const groups = new Map<number, StoredItem[]>();
  items.forEach((item, index) => {
    const root = sets.find(index);
    groups.set(root, [...(groups.get(root) ?? []), item]);
  });
  const aliases = new Map<string, string>();
  const merged: StoredItem[] = [];
  for (const group of groups.values()) {
    const item = mergeGroup(group);
    for (const member of group) if (member.key !== item.key) aliases.set(member.key, item.key);
    merged.push(item);
  }
  return { items: merged, aliases };
}

// Prefix filtering: with shingles ordered rarest first, two sets with Jaccard ≥ t must share one of the first
// |s| − ⌈t·|s|⌉ + 1 shingles of each, so only those are indexed and probed (linear-ish instead of all pairs).
function linkNearDuplicateTitles(items: StoredItem[], sets: DisjointSets, threshold: number): void {
  const shingles = items.map((item) => titleShingles(item.title));
  const frequency = new Map<string, number>();
  for (const set of shingles)
    for (const shingle of set) frequency.set(shingle, (frequency.get(shingle) ?? 0) + 1);
  const index = new Map<string, number[]>();
  shingles.forEach((set, position) => {
    const item = items[position];
    if (!item || titleWords(item.title).length < MIN_TITLE_WORDS) return;
    const ordered = [...set].sort(
      (a, b) => (frequency.get(a) ?? 0) - (frequency.get(b) ?? 0) || (a < b ? -1 : 1),
    );
    const prefix = ordered.slice(0, ordered.length - Math.ceil(threshold * ordered.length) + 1);
    const seen = new Set<number>();
    for (const shingle of prefix) {
      for (const other of index.get(shingle) ?? []) {
        if (seen.has(other)) continue;
        seen.add(other);
        const otherItem = items[other];
        // Two different arXiv ids are two papers, however alike their titles.
        if (item.arxivId && otherItem?.arxivId && item.arxivId !== otherItem.arxivId) continue;
        const otherSet = shingles[other] ?? new Set<string>();
        // Jaccard can reach the threshold only when the smaller set is at least threshold × the larger.
        if (Math.min(set.size, otherSet.size) < threshold * Math.max(set.size, otherSet.size)) continue;
        if (jaccardAtLeast(set, otherSet, threshold)) sets.union(other, position);
      }
    }
    for (const shingle of prefix) {
      const list = index.get(shingle);
      if (list) list.push(position);
      else index.set(shingle, [position]);
    }
  });
}
