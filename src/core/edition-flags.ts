// "Needs a look": an edition with items the LLM writer could not write (extractive fallbacks) or whose claims the
// faithfulness check could not support. `publish` and `send` refuse one unless told (--allow-flagged), so a
// scheduled `build && publish && send` never mails an edition nobody looked at.
import type { Edition } from './types.js';

export interface EditionFlag {
  title: string;
  /** fallback: written by the extractive writer after the model failed · flagged: unsupported claims. */
  reason: 'fallback' | 'flagged';
}

/** The items still flagged. An editor clears a flag by rewriting the item (its checks then say flagged: false). */
export function editionFlags(edition: Edition): EditionFlag[] {
  const flags: EditionFlag[] = [];
  for (const item of edition.items) {
    const checks = item.checks as { flagged?: boolean; status?: string } | undefined;
    if (checks?.status === 'fallback') flags.push({ title: item.title, reason: 'fallback' });
    else if (checks?.flagged) flags.push({ title: item.title, reason: 'flagged' });
  }
  return flags;
}

/** An edition refused because of its flags; the CLI exits 3 ("needs a look"). */
export class FlaggedEditionError extends Error {
  override name = 'FlaggedEditionError';
  constructor(
    readonly week: string,
    readonly action: 'publish' | 'send',
    readonly flags: EditionFlag[],
  ) {
    const fallbacks = flags.filter((flag) => flag.reason === 'fallback').length;
    super(
      `Edition ${week} was not ${action === 'publish' ? 'published' : 'sent'}: ${fallbacks} item(s) fell back to the ` +
        `extractive writer and ${flags.length - fallbacks} carry claims the check could not support:\n` +
        `${flags.map((flag) => `  ! ${flag.title} [${flag.reason}]`).join('\n')}\n` +
        `Look at them (edition.json: writer, checks), rebuild, or pass --allow-flagged to ${action} it as it is.`,
    );
  }
}

/** Throws FlaggedEditionError unless the edition is clean or `allowFlagged`. */
export function refuseFlagged(edition: Edition, action: 'publish' | 'send', allowFlagged: boolean): void {
  if (allowFlagged) return;
  const flags = editionFlags(edition);
  if (flags.length) throw new FlaggedEditionError(edition.date, action, flags);
}
