// What of a paper the writer reads: the abstract plus the parts a practitioner acts on, cut to the input budget.
//
// The rule (documented in enrich/README.md, "What the writer reads"):
//  1. Parts, by the section titles LaTeXML gives: the introduction's contribution statements (its paragraphs that
//     say "we propose / introduce / present", "contribution", "in this paper/work", or its last paragraph), the first
//     method section's overview, every results section (text, then figure and table captions), limitations, and the
//     conclusion. Related work, background, acknowledgements and appendices are never sent. A paper whose titles match
//     none of these sends its numbered sections in order instead.
//  2. The budget is `llm.maxInputTokens` × 4 characters (the same ≈ 4 characters a token as truncateToTokens).
//  3. The abstract comes first and whole (cut only if it alone exceeds the budget). The rest is shared equally among
//     the parts: a part shorter than its share is sent whole and leaves the rest to the others; a longer one is cut at
//     a sentence end to its share. Parts are sent in paper order, each marked with its section id.
import type { PaperSection, PaperText } from '../core/types.js';

export interface PaperPart {
  /** Section anchor ("S4") or "abstract". */
  id: string;
  /** "§4", "§IV", "Abstract". */
  label: string;
  title: string;
  /** Why it was chosen: the extractive writer prefers result sentences from a results part. */
  role: PartRole;
  text: string;
}

/** A paper as the writers read it: the page (for section links) and the chosen parts, within budget. */
export interface PaperForWriting {
  url: string;
  parts: PaperPart[];
}

export const CHARS_PER_TOKEN = 4;

type Role = 'contributions' | 'method' | 'results' | 'limitations' | 'conclusion';
export type PartRole = Role | 'abstract' | 'section';

const ROLE_TITLES: [Role, RegExp][] = [
  ['conclusion', /\bconclu|\bsummary\b|\bfuture work\b/i],
  ['limitations', /\blimitation|\bdiscussion\b|\bethic|\bbroader impact|\bfailure/i],
  ['results', /\bresult|\bexperiment|\bevaluat|\bbenchmark|\bperformance\b|\bempirical|\bablation/i],
  [
    'method',
    /\bmethod|\bapproach\b|\barchitectur|\bmodel\b|\bframework\b|\bproposed\b|\bdesign\b|\bsystem\b|\btraining\b/i,
  ],
];
const NEVER = /\brelated work|\bbackground\b|\bpreliminar|\backnowledg|\breferences\b|\bnotation\b/i;
const INTRODUCTION = /\bintroduction\b|\boverview\b/i;
const CONTRIBUTION =
  /\bcontribution|\bwe (?:propose|introduce|present|release|show|develop)\b|\bin this (?:paper|work)\b/i;
/** The method section is an overview: its opening, not its every detail. */
const METHOD_OVERVIEW_CHARS = 3_000;

export function sectionLabel(section: Pick<PaperSection, 'id' | 'number' | 'title' | 'kind'>): string {
  if (section.kind === 'abstract') return 'Abstract';
  return section.number ? `§${section.number}` : section.title;
}

/** The parts of `paper` to write from, within `maxTokens` (see the rule above). */
export function paperForWriting(paper: PaperText, maxTokens: number): PaperForWriting {
  const budget = maxTokens * CHARS_PER_TOKEN;
  const abstract = paper.sections.find((section) => section.kind === 'abstract');
  const chosen = practitionerParts(paper.sections);
  const abstractPart = abstract ? toPart(abstract, abstract.text, 'abstract') : null;
  const head = abstractPart ? [{ ...abstractPart, text: cutAtSentence(abstractPart.text, budget) }] : [];
  const left = budget - head.reduce((sum, part) => sum + part.text.length, 0);
  return { url: paper.url, parts: [...head, ...shareBudget(chosen, Math.max(0, left))] };
}

function toPart(section: PaperSection, text: string, role: PartRole): PaperPart {
  return { id: section.id, label: sectionLabel(section), title: section.title, role, text };
}

function roleOf(section: PaperSection): Role | null {
  if (section.kind !== 'section' || NEVER.test(section.title)) return null;
  if (INTRODUCTION.test(section.title)) return 'contributions';
  return ROLE_TITLES.find(([, pattern]) => pattern.test(section.title))?.[0] ?? null;
}

function practitionerParts(sections: PaperSection[]): PaperPart[] {
  const parts: PaperPart[] = [];
  let methodTaken = false;
  for (const section of sections) {
    const role = roleOf(section);
    if (role === 'contributions') {
      const lines = section.text.split('\n');
      const stated = lines.filter((line) => CONTRIBUTION.test(line));
      parts.push(toPart(section, (stated.length ? stated : lines.slice(-1)).join('\n'), role));
    } else if (role === 'method') {
      if (methodTaken) continue;
      methodTaken = true;
      parts.push(toPart(section, cutAtSentence(section.text, METHOD_OVERVIEW_CHARS), role));
    } else if (role === 'results') {
      parts.push(toPart(section, [section.text, ...section.captions].filter(Boolean).join('\n'), role));
    } else if (role) parts.push(toPart(section, section.text, role));
  }
  if (parts.length > 0) return parts;
  return sections
    .filter((section) => section.kind === 'section' && !NEVER.test(section.title))
    .map((section) => toPart(section, section.text, 'section'));
}

/** Equal shares of `budget`; what a short part leaves goes to the longer ones. Paper order is kept. */
function shareBudget(parts: PaperPart[], budget: number): PaperPart[] {
  const allowance = new Map<PaperPart, number>();
  let left = budget;
  const byLength = [...parts].sort((a, b) => a.text.length - b.text.length);
  byLength.forEach((part, index) => {
    const share = Math.floor(left / (byLength.length - index));
    const take = Math.min(part.text.length, share);
    allowance.set(part, take);
    left -= take;
  });
  return parts
    .map((part) => ({ ...part, text: cutAtSentence(part.text, allowance.get(part) ?? 0) }))
    .filter((part) => part.text.length > 0);
}

/** `text` cut to at most `maxChars`, at a sentence (or line) end when one is in the last 40 %, else at a word. */
export function cutAtSentence(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  if (maxChars < 40) return '';
  const cut = text.slice(0, maxChars);
  const end = Math.max(
    cut.lastIndexOf('. '),
    cut.lastIndexOf('.\n'),
    cut.lastIndexOf('\n'),
    cut.lastIndexOf('? '),
  );
  if (end > maxChars * 0.6) return cut.slice(0, end + 1).trim();
  const space = cut.lastIndexOf(' ');
  return cut.slice(0, space > 0 ? space : maxChars).trim();
}

/** The text the writers read for a paper: every part, marked with its id and title (used in prompts and checks). */
export function partsText(parts: readonly PaperPart[]): string {
  return parts.map((part) => part.text).join('\n');
}
