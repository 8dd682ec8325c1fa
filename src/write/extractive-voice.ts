// The reader's voice: a source sentence in its authors' first person ("We propose…", "our method", "I built…")
// becomes a sentence about them ("The authors propose…", "the authors' method", "The author built…"). Only
// pronouns and the verb forms that agree with them change; every other word is the source's own. A sentence
// whose first person cannot be turned safely ("Let us…", "I think X" where the verb form is unclear) is refused.

export type ItemKind = 'paper' | 'post';

interface Voice {
  /** Subject at the first mention ("the authors"), later mentions ("they"). */
  subject: string;
  later: string;
  possessive: string;
  laterPossessive: string;
  object: string;
  /** For "ours" / "mine". */
  absolute: string;
  singular: boolean;
}

const PLURAL_PAPER: Voice = {
  subject: 'the authors',
  later: 'they',
  possessive: "the authors'",
  laterPossessive: 'their',
  object: 'the authors',
  absolute: 'theirs',
  singular: false,
};
const PLURAL_POST: Voice = { ...PLURAL_PAPER, subject: 'the team', possessive: "the team's" };
const SINGULAR: Voice = {
  subject: 'the author',
  later: 'the author',
  possessive: "the author's",
  laterPossessive: 'their',
  object: 'the author',
  absolute: "the author's",
  singular: true,
};

// Opening phrases that only say "in this text": dropped, the sentence reads the same without them.
const SELF_FRAME =
  /^(?:in this (?:paper|work|study|post|article|report|note|blog post),?|here,?|in this work we|herein,?)\s+(?=we\b|i\b|our\b|my\b)/i;

const FIRST_PERSON =
  /\b(?:we|we're|we've|we'll|we'd|our|ours|ourselves|us|i|i'm|i've|i'll|i'd|my|mine|myself|me)\b/i;
/** Marks a subject that stood for "I", whose verb must agree with it. */
const MARK = '\u0001';
const REFUSE = /\b(?:let us|let's|lets us)\b/i;

const SINGULAR_VERBS: Record<string, string> = {
  am: 'is',
  have: 'has',
  do: 'does',
  "don't": "doesn't",
  go: 'goes',
  was: 'was',
  did: 'did',
  had: 'had',
  will: 'will',
  would: 'would',
  can: 'can',
  could: 'could',
  should: 'should',
  might: 'might',
  may: 'may',
  must: 'must',
  "can't": "can't",
  "won't": "won't",
  "didn't": "didn't",
  "wasn't": "wasn't",
};

const IRREGULAR_PAST = new Set(
  (
    'built made wrote found thought ran took got spent went saw began knew gave left kept felt brought bought ' +
    'taught told said put set read let cut hit came became sent led held meant lost paid chose drove fell grew won ' +
    'understood learnt ate forgot sat stood wore'
  ).split(' '),
);

/** "build" → "builds", "try" → "tries", "fix" → "fixes"; past forms ("built", "tried") stay. */
function thirdPersonVerb(word: string): string | null {
  const lower = word.toLowerCase();
  const known = SINGULAR_VERBS[lower];
  if (known) return known;
  if (!/^[a-z]+(?:-[a-z]+)*$/.test(lower)) return null;
  if (/ed$/.test(lower) || IRREGULAR_PAST.has(lower)) return word;
  if (/(?:s|sh|ch|x|z|o)$/.test(lower)) return `${word}es`;
  if (/[^aeiou]y$/.test(lower)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

/** True when the text speaks in the first person. */
export function hasFirstPerson(text: string): boolean {
  return FIRST_PERSON.test(text);
}

/** "I really like" → "the author really likes": the verb after "I" (an -ly adverb may sit between). */
function singularClause(rest: string): string | null {
  const match = /^(\s+)((?:[a-z]+ly\s+)?)([a-z'-]+)/i.exec(rest);
  if (!match) return null;
  const verb = thirdPersonVerb(match[3] ?? '');
  if (!verb) return null;
  return `${match[1]}${match[2]}${verb}${rest.slice(match[0].length)}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What a first-person word does in its sentence; a subject may carry a contracted verb ("we're" → "are"). */
interface PronounRole {
  singular: boolean;
  role: 'subject' | 'possessive' | 'object' | 'absolute' | 'reflexive';
  verb?: string;
}

type Role = PronounRole['role'];

/** One grammatical person's words by role, and its contractions with the verb each stands for. */
function person(
  singular: boolean,
  words: Partial<Record<Role, string>>,
  contractions: Record<string, string>,
): Record<string, PronounRole> {
  return Object.fromEntries([
    ...Object.entries(words).map(([role, word]) => [word, { singular, role: role as Role }]),
    ...Object.entries(contractions).map(([word, verb]) => [
      word,
      { singular, role: 'subject' as const, verb },
    ]),
  ]);
}

/** Every first-person word but "I" itself (a speaker or a numeral: see speakerI). */
const PRONOUNS: Record<string, PronounRole> = {
  ...person(
    false,
    { subject: 'we', possessive: 'our', absolute: 'ours', reflexive: 'ourselves', object: 'us' },
    { "we're": 'are', "we've": 'have', "we'll": 'will', "we'd": 'would' },
  ),
  ...person(
    true,
    { possessive: 'my', absolute: 'mine', reflexive: 'myself', object: 'me' },
    { "i'm": 'is', "i've": 'has', "i'll": 'will', "i'd": 'would' },
  ),
};

const FIRST_PERSON_WORD =
  /\b(we're|we've|we'll|we'd|we|i'm|i've|i'll|i'd|ourselves|ours|our|us|myself|mine|my|me|i)\b(?!-)/gi;

/** "Type I", "(I)": a numeral, not a speaker. */
const NUMERAL_BEFORE = /\b(?:type|phase|stage|part|level|tier|class|table|figure|section|world war)\s+$/i;

interface ThirdPerson {
  /** The replacement for one first-person word, given the text before and after it. */
  word(word: string, before: string, after: string): string;
  /** True once a word could not be turned safely: the sentence is refused. */
  failed(): boolean;
}

/** Turns the first person of one sentence, left to right, so "first mention" is the first in reading order. */
function thirdPerson(plural: Voice): ThirdPerson {
  let named = false;
  let failed = false;
  const subject = (voice: Voice) => {
    const word = named ? voice.later : voice.subject;
    named = true;
    return word;
  };
  /** "I" followed by a lower-case word is the speaker, marked for its verb; a lone "I" or a numeral stays. */
  const speakerI = (word: string, before: string, after: string) => {
    if (word === 'I' && NUMERAL_BEFORE.test(before)) return word;
    if (word !== 'I' || !/^\s+[a-z]/.test(after)) {
      if (word === 'I' && !/^\s+[a-z]/.test(after)) return word;
      failed = true;
      return word;
    }
    const name = subject(SINGULAR);
    return name === SINGULAR.subject ? `${MARK}${name}` : name;
  };
  const word = (word: string, before: string, after: string): string => {
    if (word.toLowerCase() === 'i') return speakerI(word, before, after);
    const pronoun = PRONOUNS[word.toLowerCase()];
    if (!pronoun) return word;
    const voice = pronoun.singular ? SINGULAR : plural;
    switch (pronoun.role) {
      case 'subject':
        return pronoun.verb ? `${subject(voice)} ${pronoun.verb}` : subject(voice);
      case 'possessive':
        return named ? voice.laterPossessive : voice.possessive;
      case 'object':
        return named ? 'them' : voice.object;
      case 'absolute':
        return voice.absolute;
      case 'reflexive':
        return 'themselves';
    }
  };
  return { word, failed: () => failed };
}

/** "\u0001the author build" → "the author builds": the verb after each subject that stood for "I"; null if unclear. */
function agreeSingularVerbs(marked: string): string | null {
  let text = marked;
  for (let at = text.indexOf(MARK); at >= 0; at = text.indexOf(MARK)) {
    const end = at + MARK.length + SINGULAR.subject.length;
    const rest = text.slice(end);
    if (/^\s+(?:is|has|will|would)\b/.test(rest)) {
      text = text.slice(0, at) + text.slice(at + MARK.length);
      continue;
    }
    const clause = singularClause(rest);
    if (clause === null) return null;
    text = text.slice(0, at) + text.slice(at + MARK.length, end) + clause;
  }
  return text;
}

/**
 * The sentence in the third person, or null when it cannot be turned safely. `kind` chooses who "we" are:
 * the authors of a paper, the team behind a post; "I" is the author.
 */
export function readerVoice(sentence: string, kind: ItemKind): string | null {
  if (!FIRST_PERSON.test(sentence)) return sentence;
  if (REFUSE.test(sentence)) return null;
  const turn = thirdPerson(kind === 'paper' ? PLURAL_PAPER : PLURAL_POST);
  // positional: String.prototype.replace hands its replacer the match, the group, the offset and the whole string.
  const marked = sentence
    .replace(SELF_FRAME, '')
    .replace(FIRST_PERSON_WORD, (word, _match, offset: number, whole: string) =>
      turn.word(word, whole.slice(0, offset), whole.slice(offset + word.length)),
    );
  if (turn.failed()) return null;
  const text = agreeSingularVerbs(marked);
  return text === null ? null : capitalise(text);
}

// Words after which "the authors" is an object ("by the authors" → "by them"), not a subject ("they").
const OBJECT_BEFORE =
  /\b(?:by|to|for|with|from|of|than|as|between|among|about|on|at|into|like|toward|towards|via|thank|thanks)\s+$/i;

/**
 * "The authors" once per item: the texts in the order a reader meets them (summary, then each takeaway); every
 * later "the authors" becomes "they" / "them" / "their" ("To optimise the authors' framework, the authors develop"
 * → "To optimise their framework, they develop" once they were named). Only these words change.
 */
export function nameAuthorsOnce(texts: readonly string[]): string[] {
  let named = false;
  return texts.map((text) =>
    text.replace(
      /\b(the authors)('s?)?(?=\W|$)/gi,
      // positional: String.prototype.replace hands its replacer the match, the groups, the offset and the whole.
      (match, words: string, apostrophe: string | undefined, offset: number, whole: string) => {
        if (!named) {
          named = true;
          return match;
        }
        const capital = words[0] === 'T';
        const cased = (word: string) => (capital ? word[0]!.toUpperCase() + word.slice(1) : word);
        if (apostrophe) return cased('their');
        return cased(OBJECT_BEFORE.test(whole.slice(0, offset)) ? 'them' : 'they');
      },
    ),
  );
}
