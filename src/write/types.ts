// The Writer seam: the pipeline hands chosen items to a writer and gets prose back.
// Implementations: extractive (offline, deterministic) and LLM. Each item may fall back on its own.

import type { Logger } from '../core/ports.js';
import type { WrittenItem } from '../core/types.js';
import type { PaperForWriting } from './paper-input.js';

export interface ItemForWriting {
  key: string;
  title: string;
  url: string;
  authors: string[];
  /** Plain source text: abstract or readable post text. Untrusted data. */
  text: string;
  /** Configured id of the primary source. */
  source: string;
  arxivId: string | null;
  publishedAt: string;
  /** Editor's note for manual items. */
  note?: string | null;
  /** The paper read in full: its abstract and practitioner sections within the input budget (paper-input.ts). */
  paper?: PaperForWriting | null;
}

export interface WriterContext {
  /** Newsletter name and audience, from config. */
  name: string;
  audience: string;
  log: Logger;
  signal?: AbortSignal;
  /** Called after each item is written (for progress display). */
  onItemWritten?: (done: number, total: number, key: string) => void;
}

export interface EditionHeader {
  title: string;
  intro: string;
  writer: string;
}

export interface Writer {
  /** "extractive" or the model id. */
  readonly name: string;
  /** Writes every item, same order as given. Never rejects for one bad item: that item falls back. */
  writeItems(items: ItemForWriting[], context: WriterContext): Promise<WrittenItem[]>;
  /** Title and intro, from the chosen items and what was written for them. */
  writeEdition(items: (ItemForWriting & WrittenItem)[], context: WriterContext): Promise<EditionHeader>;
}
