// The "brain" of the fake LLM: answers our three prompts (item, check, edition) from the data in the prompt, so
// a valid answer is faithful to the source and a scripted bad answer is bad in a known way. Synthetic by design.
import { rejectReason, splitSentences, wordCount } from '../../src/write/sentences.js';

export type PromptKind = 'item' | 'check' | 'edition' | 'triage' | 'translate' | 'unknown';

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
  /** A translation that drops numbers and renames methods (the translation check must catch it). */
  | 'lossy'
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
  if (/You translate parts of a weekly digest/.test(system)) return 'translate';
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

/** A paper read in full comes as <section id="…"> parts (a header line, then the text); anything else is one text. */
function sectionsOf(source: string): { id: string; text: string }[] {
  const parts = [...source.matchAll(/<section id="([^"]+)">\n[^\n]*\n([\s\S]*?)\n<\/section>/g)];
  if (parts.length === 0) return [{ id: 'text', text: source }];
  return parts.map((match) => ({ id: match[1] ?? '', text: match[2] ?? '' }));
}

/** Where the fake found a takeaway: the section whose text holds its words (it quotes the takeaway itself). */
function supportFor(takeaway: string, sections: { id: string; text: string }[]) {
  // The takeaway's opening words (a quote is at most 25 words: output-schema.ts).
  const quote = takeaway.replace(/\.$/, '').split(' ').slice(0, 20).join(' ');
  const section = sections.find((part) => part.text.includes(quote))?.id ?? sections[0]?.id ?? 'text';
  return { quote, section };
}

export function itemAnswer(user: string, behaviour: FakeBehaviour): string {
  const sections = sectionsOf(between(user, '<source_text>', '</source_text>'));
  const source = sections.map((part) => part.text).join(' ');
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
    support: takeaways.map((takeaway) => supportFor(takeaway, sections)),
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
      const text = (match[2] ?? '').replace(/^\[section [^\]]+\] /, '');
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

// A few common words, enough to make the fake's German recognisably German; everything else stays as it was, so
// names, numbers and quotes come back verbatim (as a good model keeps them).
const GERMAN: Record<string, string> = {
  the: 'die',
  and: 'und',
  of: 'von',
  for: 'für',
  with: 'mit',
  is: 'ist',
  are: 'sind',
  this: 'diese',
  a: 'ein',
  in: 'in',
  to: 'zu',
  on: 'auf',
  that: 'dass',
  model: 'Modell',
  models: 'Modelle',
  paper: 'Beitrag',
  edition: 'Ausgabe',
  items: 'Beiträge',
};

/** Translates every <field id="…"> of the prompt into the fake's German. */
export function translateAnswer(user: string, behaviour: FakeBehaviour): string {
  const fields = [...user.matchAll(/<field id="([^"]+)">([\s\S]*?)<\/field>/g)].map((match) => {
    // Quoted text stays as it is (a quote is kept verbatim); the words around it become German.
    let text = (match[2] ?? '')
      .split(/("[^"]*"|“[^”]*”)/)
      .map((part, index) => (index % 2 ? part : part.replace(/\b[a-z]+\b/g, (word) => GERMAN[word] ?? word)))
      .join('');
    if (behaviour === 'lossy')
      text = text.replace(/\d+/g, 'viele').replace(/\b([A-Z][a-z]*[A-Z]\w*)\b/g, 'die Methode');
    return { id: match[1], text: `[de] ${text}` };
  });
  return JSON.stringify({ fields });
}

export function answerFor(kind: PromptKind, user: string, behaviour: FakeBehaviour): string {
  if (kind === 'check') return checkAnswer(user);
  if (kind === 'translate') return translateAnswer(user, behaviour);
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
