// What a practitioner can use, read conservatively from the source: each fact needs words of the source that state
// it (kept as `quote`), so the card never shows a fact the paper does not make.
//   code       a GitHub/GitLab repository link whose paragraph presents it as the work's own ("our code", "Code:",
//              "available at", "we release", "reference implementation"); a tool the paper merely used is not code.
//              When the paper's links name none, the repository the source lists for the item (HF `githubRepo`)
//   weights    a Hugging Face model link (huggingface.co/<owner>[/<name>]) in such a paragraph ("release", "weights")
//   dataset    a Hugging Face dataset link (huggingface.co/datasets/…) in such a paragraph
//   licence    "released / available / licensed under the <name> licence" in the text (arXiv's own "License: CC BY"
//              line of the page is the paper's licence, not the artefact's, and is never read)
//   compute    "<n> × <accelerator>" (the largest count the work states for itself, not in a sentence about other
//              work) with a duration from that sentence ("for 36 hours"), and "<n> GPU hours"
//   benchmarks known benchmark names found in the results parts (or the abstract when there are none)
import type { PaperText, PractitionerFact } from '../core/types.js';
import { splitSentences } from './sentences.js';

export interface FactSource {
  paper: PaperText | null;
  /** The item's own text (the abstract, or a post's text). */
  text: string;
  /** The code repository a source lists for the item (HF `githubRepo`, validated on ingest). */
  listedRepo?: string | null;
}

export const LISTED_REPO_QUOTE =
  'the code repository Hugging Face daily papers lists for this paper (githubRepo)';

const OWN_RELEASE =
  /\b(?:our (?:code|implementation|models?|weights|checkpoints?|data(?:set)?s?|repository|library|toolkit)|(?:code|models?|weights|checkpoints?|data(?:set)?s?)(?: \w+){0,4} (?:is|are)(?: \w+){0,2} (?:publicly |openly |freely )?(?:available|released)|(?:publicly |openly |freely )?available (?:at|on|from|via)|we (?:release|open[- ]source|publish|make)\b|code:|project page:|implementation:|reference implementation|released (?:at|on))/i;
const REPO =
  /^https?:\/\/(?:www\.)?(github\.com|gitlab\.com)\/([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?(?:[#?].*)?$/i;
const HF_MODEL =
  /^https?:\/\/(?:www\.)?huggingface\.co\/(?!datasets\/|spaces\/|papers\/|docs\/|blog\/|learn\/)([\w.-]+)(?:\/([\w.-]+))?\/?(?:[#?].*)?$/i;
const HF_DATASET = /^https?:\/\/(?:www\.)?huggingface\.co\/datasets\/([\w.-]+)\/([\w.-]+)\/?(?:[#?].*)?$/i;
const URL_IN_TEXT = /https?:\/\/[^\s<>"')\]]+[^\s<>"')\].,;:]/g;

const LICENCE =
  /\b(?:released|available|licensed|distributed|published)\s+under\s+(?:the\s+|an?\s+)?(Apache(?:[ -]License)?[ -]?(?:v(?:ersion)?\s?)?2(?:\.0)?|MIT|BSD[ -]?[23][ -]Clause|CC[ -]BY(?:[ -](?:SA|NC|ND))*(?:[ -]\d\.\d)?|CC0|GPL[ -]?v?[23](?:\.0)?|LGPL[ -]?v?[23](?:\.\d)?|Llama \d(?:\.\d)? Community|OpenRAIL(?:-M)?)\s+licen[cs]e/i;
const ACCELERATOR =
  /\b(\d{1,3}(?:,\d{3})*|\d+)\s*(?:×|x)?\s*(?:NVIDIA\s+|AMD\s+|Google\s+)?(?:\d+\s*GB\s+)?(H100|H200|H800|A100|A800|V100|B200|GB200|GH200|L40S?|A6000|A40|RTX\s?\d{4}(?:\s?Ti)?|TPU\s?v\d\w*|MI\d{3}X?)s?\b/g;
/** How long, said in the same sentence as the accelerators: "for 36 hours", "in 14 days". */
const DURATION =
  /\b(?:for|in|over|took|takes|within|about|approximately|roughly|~)\s+(?:about\s+|approximately\s+|~)?(\d+(?:\.\d+)?)\s*(hours?|hrs?|h|days?|weeks?)\b/i;
const OTHER_WORK = /\b(?:prior|previous|previously|related|et al\.?|they|their|reported by|according to)\b/i;
const GPU_HOURS =
  /\b(\d+(?:[.,]\d+)?\s*(?:[KkM]|thousand|million)?)\s*(?:[A-Z]\d{2,3}\s+)?(GPU|TPU|accelerator)[- ]hours\b/;

/** Benchmark names as papers write them; matched as whole words, case-sensitively. */
const BENCHMARKS = [
  'MMLU-Pro',
  'MMLU',
  'GSM8K',
  'MATH-500',
  'HumanEval+',
  'HumanEval',
  'MBPP',
  'HellaSwag',
  'ARC-Challenge',
  'ARC-Easy',
  'WinoGrande',
  'Winogrande',
  'PIQA',
  'SIQA',
  'BoolQ',
  'TruthfulQA',
  'BIG-Bench Hard',
  'BBH',
  'MT-Bench',
  'AlpacaEval',
  'Arena-Hard',
  'GPQA',
  'SWE-bench',
  'LiveCodeBench',
  'AIME',
  'NaturalQuestions',
  'Natural Questions',
  'TriviaQA',
  'LAMBADA',
  'OpenBookQA',
  'CommonsenseQA',
  'QuAC',
  'DROP',
  'SQuAD',
  'SuperGLUE',
  'GLUE',
  'MMMU',
  'MathVista',
  'VQAv2',
  'ImageNet',
  'COCO',
  'LibriSpeech',
  'HELM',
  'BigBench',
  'BIG-bench',
  'IFEval',
  'RULER',
  'LongBench',
  'WebArena',
  'OSWorld',
  'GAIA',
  'AgentBench',
  'ToolBench',
  'BFCL',
  'MTEB',
  'BEIR',
  'C-Eval',
  'CMMLU',
  'AGIEval',
  'FinQA',
  'ConvFinQA',
  'FiQA',
  'FPB',
  'VoxCeleb2',
  'LRS3',
];
const SHOWN_BENCHMARKS = 4;

export function practitionerFacts(source: FactSource): PractitionerFact[] {
  const links = linksOf(source);
  const facts: PractitionerFact[] = [];
  const code = links.find((link) => REPO.test(link.url) && OWN_RELEASE.test(leadIn(link)));
  if (code) facts.push({ kind: 'code', label: 'Code', url: code.url, quote: code.context });
  else if (source.listedRepo)
    facts.push({ kind: 'code', label: 'Code', url: source.listedRepo, quote: LISTED_REPO_QUOTE });
  const dataset = links.find((link) => HF_DATASET.test(link.url) && OWN_RELEASE.test(leadIn(link)));
  const weights = links.find(
    (link) =>
      HF_MODEL.test(link.url) &&
      /\b(?:release|weights|checkpoints?|models? (?:is|are) available)/i.test(leadIn(link)),
  );
  if (weights) facts.push({ kind: 'weights', label: 'Weights', url: weights.url, quote: weights.context });
  if (dataset) facts.push({ kind: 'dataset', label: 'Dataset', url: dataset.url, quote: dataset.context });
  const texts = textsOf(source);
  const licence = findLicence(texts);
  if (licence) facts.push(licence);
  const compute = findCompute(texts);
  if (compute) facts.push(compute);
  const benchmarks = findBenchmarks(source);
  if (benchmarks) facts.push(benchmarks);
  return facts;
}

/** Words right before a link (or its paragraph's start when the link text is not in it): what it is said to be. */
const LEAD_IN_CHARS = 120;
function leadIn(link: { url: string; context: string }): string {
  const at = link.context.indexOf(link.url);
  if (at === -1) return link.context.slice(0, LEAD_IN_CHARS);
  return link.context.slice(Math.max(0, at - LEAD_IN_CHARS), at);
}

function linksOf(source: FactSource): { url: string; context: string }[] {
  const inText = textsOf(source).flatMap((text) =>
    splitSentences(text).flatMap((sentence) =>
      [...sentence.matchAll(URL_IN_TEXT)].map((match) => ({ url: match[0], context: sentence })),
    ),
  );
  return [...(source.paper?.links ?? []), ...inText];
}

/** The text facts are read from: the paper's sections and captions, or the item's own text. */
function textsOf(source: FactSource): string[] {
  if (!source.paper) return [source.text];
  return source.paper.sections.flatMap((section) => [section.text, ...section.captions]);
}

function sentenceWith(texts: string[], pattern: RegExp): { sentence: string; match: RegExpExecArray } | null {
  for (const text of texts) {
    for (const sentence of splitSentences(text)) {
      pattern.lastIndex = 0;
      const match = pattern.exec(sentence);
      if (match) return { sentence, match };
    }
  }
  return null;
}

function findLicence(texts: string[]): PractitionerFact | null {
  const found = sentenceWith(texts, LICENCE);
  if (!found) return null;
  return { kind: 'licence', label: licenceLabel(found.match[1] ?? ''), url: null, quote: found.sentence };
}

export function licenceLabel(name: string): string {
  const compact = name.trim().replace(/\s+/g, ' ');
  if (/^apache/i.test(compact)) return 'Apache-2.0';
  if (/^cc/i.test(compact)) return compact.toUpperCase().replace(/ /g, '-');
  if (/^bsd/i.test(compact)) return `BSD-${/[23]/.exec(compact)?.[0]}-Clause`;
  return compact.replace(/ (?=v?\d)/, '-');
}

function findCompute(texts: string[]): PractitionerFact | null {
  // The largest count the work states for itself: a sentence about other work ("prior", "et al.") is not its run.
  let best: { count: number; chip: string; sentence: string } | null = null;
  for (const text of texts) {
    for (const sentence of splitSentences(text)) {
      if (OTHER_WORK.test(sentence)) continue;
      for (const match of sentence.matchAll(ACCELERATOR)) {
        const count = Number((match[1] ?? '').replace(/,/g, ''));
        if (!Number.isInteger(count) || count < 1 || count > 200_000) continue;
        if (!best || count > best.count)
          best = { count, chip: (match[2] ?? '').replace(/\s+/g, ''), sentence };
      }
    }
  }
  const hours = sentenceWith(texts, GPU_HOURS);
  if (!best && !hours) return null;
  const duration = best ? DURATION.exec(best.sentence) : null;
  const parts = [
    ...(best ? [`${best.count}×${best.chip}${duration ? `, ${durationLabel(duration)}` : ''}`] : []),
    ...(hours ? [`${(hours.match[1] ?? '').replace(/\s+/g, '')} ${hours.match[2]} hours`] : []),
  ];
  const quote = [best?.sentence, hours?.sentence].filter(
    (part, index, all) => part && all.indexOf(part) === index,
  );
  return { kind: 'compute', label: parts.join(', '), url: null, quote: quote.join(' … ') };
}

function durationLabel(match: RegExpExecArray): string {
  const unit = (match[2] ?? '').toLowerCase();
  const short = unit.startsWith('h')
    ? 'h'
    : unit.startsWith('d')
      ? match[1] === '1'
        ? 'day'
        : 'days'
      : unit;
  return `${match[1]} ${short}`;
}

function findBenchmarks(source: FactSource): PractitionerFact | null {
  const results = source.paper?.sections.filter((section) =>
    /\bresult|\bexperiment|\bevaluat|\bbenchmark|\bperformance\b/i.test(section.title),
  );
  const texts = results?.length
    ? results.flatMap((section) => [section.text, ...section.captions])
    : [source.paper?.sections.find((section) => section.kind === 'abstract')?.text ?? source.text];
  const joined = texts.join('\n');
  const found: { name: string; at: number }[] = [];
  for (const name of BENCHMARKS) {
    const at = joined.search(
      new RegExp(`(?<![\\w-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-]|\\+)`),
    );
    if (at === -1) continue;
    if (found.some((other) => other.name.includes(name) && Math.abs(other.at - at) < other.name.length))
      continue;
    found.push({ name, at });
  }
  if (found.length === 0) return null;
  found.sort((a, b) => a.at - b.at);
  const names = found.map((entry) => entry.name);
  const shown = names.slice(0, SHOWN_BENCHMARKS).join(', ');
  const label = names.length > SHOWN_BENCHMARKS ? `${shown} +${names.length - SHOWN_BENCHMARKS}` : shown;
  return { kind: 'benchmarks', label, url: null, quote: names.join(', ') };
}

/** The facts as an editor edits them: labels joined by " · ", each followed by its link when it has one. */
export function factsText(facts: readonly PractitionerFact[] | undefined): string {
  return (facts ?? []).map((fact) => (fact.url ? `${fact.label} ${fact.url}` : fact.label)).join(' · ');
}

export const EDITOR_QUOTE = 'stated by an editor on the desk';

/**
 * An editor's facts line back into facts: parts split at "·" or line breaks, an http(s) link in a part is its link.
 * A part whose label the generated facts had keeps that fact's kind and quote; a new one is the editor's own.
 */
export function factsFromText(text: string, previous: readonly PractitionerFact[] = []): PractitionerFact[] {
  return text
    .split(/\s*·\s*|\n/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const url = /https?:\/\/\S+/.exec(part)?.[0] ?? null;
      const label = (url ? part.replace(url, '') : part).trim() || (url ? 'Link' : part);
      const known = previous.find((fact) => fact.label.toLowerCase() === label.toLowerCase());
      if (known) return { ...known, label, url };
      return { kind: kindOf(label, url), label, url, quote: EDITOR_QUOTE };
    });
}

function kindOf(label: string, url: string | null): PractitionerFact['kind'] {
  if (url && HF_DATASET.test(url)) return 'dataset';
  if (/^code$/i.test(label) || (url && REPO.test(url))) return 'code';
  if (/weights|checkpoint|model/i.test(label) || (url && HF_MODEL.test(url))) return 'weights';
  if (/data/i.test(label)) return 'dataset';
  if (/licen[cs]e|apache|mit|bsd|gpl|cc[- ]by|cc0|openrail/i.test(label)) return 'licence';
  if (/×|gpu|tpu|hours|h100|a100/i.test(label)) return 'compute';
  return 'benchmarks';
}
