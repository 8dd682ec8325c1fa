// Sentences that lean on the one before them ("However, …", "To address this issue, …", "These results …").
// Shown without that sentence they read as fragments, so the extractive writer trims a leading link phrase when the
// rest stands alone, and otherwise only shows the sentence right after its predecessor.

// Link words that only say how a sentence relates to the one before it.
const CONNECTIVE =
  /^(?:however|yet|but|moreover|furthermore|in addition|additionally|besides|thus|therefore|hence|consequently|nevertheless|nonetheless|meanwhile|instead|still|also|then|finally|first(?:ly)?|second(?:ly)?|third(?:ly)?|to this end|as a result|on the other hand|in contrast|by contrast|specifically|concretely|notably|importantly|in particular|for example|for instance|in practice|crucially|overall)$/i;

// "this paper" and the like name the item itself, not an earlier sentence; "such as" introduces examples.
const SELF_REFERENCE = /^(?:paper|work|study|post|article|report|survey|thesis|tutorial|blog|letter|as)\b/i;
const DEMONSTRATIVE = /\b(?:this|these|those|such)\b(?:\s+(\S+))?/gi;

/** True when a demonstrative in the text points at something earlier ("this limitation", not "this paper"). */
function hasBackReference(text: string): boolean {
  for (const match of text.matchAll(DEMONSTRATIVE)) if (!SELF_REFERENCE.test(match[1] ?? '')) return true;
  return false;
}

// An adverbial phrase (preposition, infinitive, participle) — not a subject like "These methods, however, …".
const ADVERBIAL_START =
  /^(?:to|in|on|under|with|for|by|from|after|before|despite|given|based|inspired|guided|motivated|unlike|compared|as|at|following|against|towards?|within|across|among|via|beyond|through|\w+ing)\b/i;

/**
 * Drops a leading link phrase ending in a comma ("However, ", "To address this issue, ", "Under this
 * correspondence, ") or a bare "Yet"/"But", and capitalises what follows; else returns the sentence unchanged.
 */
export function trimLeadingLink(sentence: string): string {
  const bare = /^(?:yet|but)\s+(?=[a-z])/i.exec(sentence);
  if (bare) return capitalise(sentence.slice(bare[0].length));
  const match = /^([^,]{2,80}),\s+(?=[A-Za-z])/.exec(sentence);
  const phrase = match?.[1];
  if (!match || !phrase || phrase.split(' ').length > 8) return sentence;
  // Before a capital ("Moreover, VIA-SD is…") only a bare connective is a link phrase; the name stays as written.
  const lowerNext = /[a-z]/.test(sentence.charAt(match[0].length));
  const linking =
    CONNECTIVE.test(phrase) || (lowerNext && ADVERBIAL_START.test(phrase) && hasBackReference(phrase));
  if (!linking) return sentence;
  return capitalise(sentence.slice(match[0].length));
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** True when the sentence (after trimming) still refers back: an opening pronoun or an early "this/these/such …". */
export function refersBack(sentence: string): boolean {
  if (/^(?:it|they|its|their|that)\b/i.test(sentence)) return true;
  return hasBackReference(sentence.split(' ').slice(0, 6).join(' '));
}

/** The sentence as it can be shown on its own, or null when it only makes sense after the sentence before it. */
export function standaloneForm(sentence: string): string | null {
  const trimmed = trimLeadingLink(sentence);
  return refersBack(trimmed) ? null : trimmed;
}
