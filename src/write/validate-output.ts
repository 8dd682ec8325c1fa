// Rules a model's output must meet before it reaches a page. Each error is a sentence the model can act on
// in the repair attempt.
import { type EditionOutput, type ItemOutput, SUMMARY_WORDS, TAKEAWAY_WORDS } from './output-schema.js';
import { normaliseForMatch, splitSentences, wordCount } from './sentences.js';

const PLAIN_TEXT_RULES: [RegExp, string][] = [
  [/<\/?[a-z!][^>]*>|&(?:lt|gt|amp|quot|#\d+);/i, 'contains HTML'],
  [/\[[^\]]*\]\([^)]*\)/, 'contains a Markdown link'],
  [/\b(?:https?|ftp):\/\/|\bwww\.|\b[\w-]+\.(?:com|org|net|io|dev|gov|edu)\b(?:\/\S*)?/i, 'contains a URL'],
  [/\b[\w.+-]+@[\w-]+\.[\w.]+/, 'contains an email address'],
  [/\*\*|__|`|^\s*(?:#{1,6}\s|[-*•]\s|\d+\.\s)/m, 'contains Markdown formatting'],
  [/[\u0000-\u0008\u000B-\u001F\u007F]/, 'contains control characters'],
];

/** Problems that make text unfit to show as plain text, e.g. ["contains HTML"]. */
export function plainTextProblems(text: string): string[] {
  return PLAIN_TEXT_RULES.filter(([pattern]) => pattern.test(text)).map(([, message]) => message);
}

export function validateItemOutput(output: ItemOutput): string[] {
  const errors: string[] = [];
  const summaryWords = wordCount(output.summary);
  if (summaryWords < SUMMARY_WORDS.min || summaryWords > SUMMARY_WORDS.max) {
    errors.push(
      `summary has ${summaryWords} words; it must have ${SUMMARY_WORDS.min} to ${SUMMARY_WORDS.max} words`,
    );
  }
  for (const problem of plainTextProblems(output.summary))
    errors.push(`summary ${problem}; use plain text only`);
  if (output.takeaways.length !== 3) errors.push(`give exactly 3 takeaways, not ${output.takeaways.length}`);
  output.takeaways.forEach((takeaway, index) => {
    const label = `takeaway ${index + 1}`;
    const words = wordCount(takeaway);
    if (words < TAKEAWAY_WORDS.min || words > TAKEAWAY_WORDS.max) {
      errors.push(
        `${label} has ${words} words; use one sentence of ${TAKEAWAY_WORDS.min} to ${TAKEAWAY_WORDS.max}`,
      );
    }
    if (splitSentences(takeaway).length > 1) errors.push(`${label} has more than one sentence`);
    for (const problem of plainTextProblems(takeaway))
      errors.push(`${label} ${problem}; use plain text only`);
  });
  if (output.support.length !== output.takeaways.length) {
    errors.push(`give one support entry (quote and section) per takeaway, not ${output.support.length}`);
  }
  if (new Set(output.takeaways.map(normaliseForMatch)).size !== output.takeaways.length) {
    errors.push('the takeaways repeat each other; give 3 distinct points');
  }
  const reason = output.levelReason.trim();
  if (!reason || wordCount(reason) > 30 || /\n/.test(reason)) {
    errors.push('levelReason must be one short line (at most 30 words)');
  }
  for (const problem of plainTextProblems(reason)) errors.push(`levelReason ${problem}`);
  return errors;
}

export function validateEditionOutput(output: EditionOutput): string[] {
  const errors: string[] = [];
  const title = output.title.trim();
  const parts = title.split(', ');
  if (parts.length !== 2 || parts.some((part) => wordCount(part) < 1 || wordCount(part) > 6)) {
    errors.push('title must be two short themes (1–6 words each) joined by ", "');
  }
  if (/[.!?:;]$/.test(title)) errors.push('title must not end with punctuation');
  if (parts.some((part) => !/^[\p{L}\p{N}][\p{L}\p{N} '’&+/-]*$/u.test(part))) {
    errors.push('title themes may use only words, digits, spaces, hyphens, apostrophes and "&"');
  }
  for (const problem of plainTextProblems(title)) errors.push(`title ${problem}`);
  const sentences = splitSentences(output.intro).length;
  const words = wordCount(output.intro);
  if (sentences < 2 || sentences > 4) errors.push(`intro has ${sentences} sentence(s); write 2 to 4`);
  if (words < 20 || words > 130) errors.push(`intro has ${words} words; write 20 to 130`);
  for (const problem of plainTextProblems(output.intro)) errors.push(`intro ${problem}`);
  return errors;
}

const RULE_LABELS: [RegExp, string | ((error: string) => string)][] = [
  [/takeaways.*(exactly 3|too (small|big)|[<>]=\s*3)|exactly 3 takeaways/i, 'takeaways not 3'],
  [
    /^summary has (\d+) words/,
    (error) =>
      Number(/(\d+)/.exec(error)?.[1]) < SUMMARY_WORDS.min ? 'summary too short' : 'summary too long',
  ],
  [/not valid JSON/, 'not JSON'],
  [/answer was empty/, 'empty answer'],
  [/did not match the schema|^[\w.]+: /, 'not the schema'],
  [/^takeaway \d+ has \d+ words/, 'takeaway length'],
  [/more than one sentence/, 'takeaway not one sentence'],
  [/repeat each other/, 'takeaways repeat'],
  [/contains /, 'not plain text'],
  [/levelReason/, 'level reason too long'],
];

/** A short name for the first rule an answer broke ("takeaways not 3", "summary too long"), for counting. */
export function ruleLabel(errors: string[]): string {
  const [first] = errors;
  if (first === undefined) return 'broke the rules';
  for (const [pattern, label] of RULE_LABELS) {
    if (pattern.test(first)) return typeof label === 'string' ? label : label(first);
  }
  return 'broke the rules';
}
