// The "brain" of the fake LLM: answers our three prompts (item, check, edition) from the data in the prompt, so
// a valid answer is faithful to the source and a scripted bad answer is bad in a known way. Synthetic by design.
import { rejectReason, splitSentences, wordCount } from '../../src/write/sentences.js';

export type PromptKind = 'item' | 'check' | 'edition' | 'triage' | 'unknown';

/** How the fake answers one request. Content behaviours shape the JSON; the others are HTTP-level failures. */
export type FakeBehaviour =
  | 'valid'
  /** A takeaway the source never states, defended by the judge with a quote that is not in the source. */
  | 'unfaithful'
  /** JSON of the wrong shape (2 takeaways, unknown level). */
  | 'schema-violation'
  /** Right shape, but breaks our rules: short summary with a URL, HTML and a Markdown link. */
  | 'rule-violation'
  /** Prose around a broken JSON object. */
  | 'invalid-json'
  | 'hang'
  /** Headers, then one byte a second, forever. */
  | 'drip'
  /** A 300 MB answer, streamed without a length. */
  | 'huge'
  /** A small gzip body that decodes to 1 GB. */
  | 'gzip-bomb'
  | { status: number; retryAfter?: string };

export function kindOf(system: string): PromptKind {
  if (/strict fact checker/i.test(system)) return 'check';
  if (/headline and introduction/i.test(system)) return 'edition';
  if (/write one entry/i.test(system)) return 'item';
  if (/rate each candidate from 0 to 10/i.test(system)) return 'triage';
  return 'unknown';
}

function between(text: string, open: string, close: string): string {
  const start = text.indexOf(open);
  const end = text.indexOf(close, start + open.length);
  return start === -1 || end === -1 ? '' : text.slice(start + open.length, end).trim();
}

const RELEVANCE = 'It is worth a look for engineers building production AI systems who want the details.';

function clip(sentence: string, maxWords: number): string {
  const words = sentence.split(' ');
  return words.length <= maxWords ? sentence : `${words.slice(0, maxWords).join(' ')}.`;
}

export function itemAnswer(user: string, behaviour: FakeBehaviour): string {
  const source = between(user, '<source_text>', '</source_text>');
  // A well-behaved model: it drops sentences it may not repeat (URLs, boilerplate), as the prompt asks.
  const sentences = splitSentences(source).filter(
    (sentence) => wordCount(sentence) >= 5 && !rejectReason(sentence)?.match(/URL|boilerplate|markup/),
  );
  const summaryParts: string[] = [];
  let words = 0;
  for (const sentence of sentences) {
    if (words + wordCount(sentence) > 95) break;
    summaryParts.push(sentence);
    words += wordCount(sentence);
  }
  while (wordCount(summaryParts.join(' ')) < 55) summaryParts.push(RELEVANCE);
  const rest = sentences.filter((sentence) => !summaryParts.includes(sentence));
  const pool = [...rest, ...sentences].map((sentence) => clip(sentence, 35));
  const takeaways = [...new Set(pool)].slice(0, 3);
  while (takeaways.length < 3) takeaways.push(`Point ${takeaways.length + 1} of the item is in its text.`);
  if (behaviour === 'unfaithful')
    takeaways[0] = 'The method cures every known disease within three days of training.';
  const answer = {
    summary: summaryParts.join(' '),
    takeaways,
    level: 'Intermediate',
    levelReason: 'Applied technical work.',
  };
  if (behaviour === 'schema-violation')
    return JSON.stringify({ ...answer, takeaways: takeaways.slice(0, 2), level: 'Expert' });
  if (behaviour === 'rule-violation') {
    return JSON.stringify({
      ...answer,
      summary:
        'Read <b>this</b> at [the site](https://evil.example.com/x) now, see https://evil.example.com.',
    });
  }
  if (behaviour === 'invalid-json')
    return `Sure! Here is the entry: {"summary": "${answer.summary.slice(0, 40)}`;
  return JSON.stringify(answer);
}

export function checkAnswer(user: string): string {
  const claimLines = user
    .slice(user.indexOf('Claims:') + 'Claims:'.length)
    .trim()
    .split('\n');
  const claims = claimLines
    .map((line) => /^(\d+)\. (.*)$/.exec(line.trim()))
    .filter((match): match is RegExpExecArray => !!match)
    .map((match) => {
      const text = match[2] ?? '';
      if (text === RELEVANCE)
        return { id: Number(match[1]), factual: false, verdict: 'supported', quote: '' };
      // A lenient judge: it calls everything supported and quotes the claim itself. Our verbatim rule catches lies.
      return { id: Number(match[1]), factual: true, verdict: 'supported', quote: text };
    });
  return JSON.stringify({ claims });
}

function titleCase(phrase: string): string {
  return phrase.replace(/\b([a-z])([a-z]*)/g, (word, first: string, rest: string) =>
    ['and', 'of', 'in'].includes(word) ? word : first.toUpperCase() + rest,
  );
}

export function editionAnswer(user: string): string {
  const count = /This edition has (\d+) items/.exec(user)?.[1] ?? 'several';
  const themes = (/Themes carried by the items \(theme: number of items\): (.*)/.exec(user)?.[1] ?? '')
    .split('; ')
    .map((entry) => entry.split(':')[0]?.trim() ?? '')
    .filter(Boolean);
  const [first = 'this week', second = 'notable work'] = themes;
  return JSON.stringify({
    title: `${titleCase(first)}, ${titleCase(second)}`,
    intro: `This edition brings together ${count} items for engineers. The strongest threads are ${first} and ${second}, with several entries on each. Every summary below sticks to what its source says.`,
  });
}

export function answerFor(kind: PromptKind, user: string, behaviour: FakeBehaviour): string {
  if (kind === 'check') return checkAnswer(user);
  if (kind === 'edition') return behaviour === 'invalid-json' ? '{"title": ' : editionAnswer(user);
  if (kind === 'triage') return triageAnswer(user);
  return itemAnswer(user, behaviour);
}

/** ≈ 4 characters a token, like the real tokenisers on English. */
export function tokensOf(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Triage: a score for every candidate line, keyed by its id, derived from its title so it is stable across runs. */
export function triageAnswer(user: string): string {
  const scores = Object.fromEntries(
    user
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { id: string; title: string })
      .map((candidate) => [candidate.id, candidate.title.length % 11]),
  );
  return JSON.stringify({ scores });
}
