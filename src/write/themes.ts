// Keyword → theme table for edition titles and intros. An item carries a theme when a keyword appears in its
// title, or at least twice in its text (boilerplate and link sentences left out). Themes are ranked by how many
// items carry them (ties: table order).

import { rejectReason, splitSentences } from './sentences.js';

export interface Theme {
  id: string;
  /** Short title-case label used in edition titles ("Agents in Practice"). */
  label: string;
  /** Lower-case phrase used in intro prose ("agents"). */
  phrase: string;
  keywords: RegExp;
}

export const THEMES: readonly Theme[] = [
  {
    id: 'agents',
    label: 'Agents in Practice',
    phrase: 'agents',
    keywords:
      /\b(?:agents?|agentic|tool[- ]use|tool calls?|multi-agent|harness(?:es)?|coworkers?|orchestrat\w*)\b/gi,
  },
  {
    id: 'safety',
    label: 'Safety and Security',
    phrase: 'safety and security',
    keywords:
      /\b(?:safety|safe|security|secure|jailbreak\w*|red[- ]teaming|prompt injection|adversarial|attacks?|alignment|misalign\w*|harmful|guardrails?|privacy|threats?|bias)\b/gi,
  },
  {
    id: 'evaluation',
    label: 'Benchmarks and Evaluation',
    phrase: 'benchmarks and evaluation',
    keywords: /\b(?:benchmarks?|evaluations?|evals?|leaderboards?|llm-as-a?-judge|judges?)\b/gi,
  },
  {
    id: 'reasoning',
    label: 'Reasoning Models',
    phrase: 'reasoning',
    keywords:
      /\b(?:reasoning|chain[- ]of[- ]thought|math(?:ematical)?|planning|test-time (?:compute|scaling))\b/gi,
  },
  {
    id: 'efficiency',
    label: 'Efficient Inference',
    phrase: 'efficiency and inference',
    keywords:
      /\b(?:inference|latency|throughput|efficien\w*|quantiz\w*|pruning|distillation|speedup|kv[- ]cache|compression|sparse|memory[- ]efficient|serving)\b/gi,
  },
  {
    id: 'multimodal',
    label: 'Multimodal Models',
    phrase: 'multimodal and vision models',
    keywords:
      /\b(?:multimodal|omnimodal|vision|visual|image|images|video|videos|audio|speech|vlms?|vision-language)\b/gi,
  },
  {
    id: 'code',
    label: 'Code Generation',
    phrase: 'code generation',
    keywords:
      /\b(?:code|coding|programming|software engineering|repositor(?:y|ies)|compilers?|developers?)\b/gi,
  },
  {
    id: 'data',
    label: 'Data Engineering',
    phrase: 'data',
    keywords:
      /\b(?:datasets?|training data|data curation|synthetic data|corpora|corpus|data quality|annotations?)\b/gi,
  },
  {
    id: 'robotics',
    label: 'Embodied AI',
    phrase: 'robotics and embodied AI',
    keywords: /\b(?:robots?|robotics?|embodied|manipulation|vision-language-action|vla|locomotion)\b/gi,
  },
  {
    id: 'retrieval',
    label: 'Retrieval and RAG',
    phrase: 'retrieval and RAG',
    keywords: /\b(?:retrieval|rag|retriever|search|knowledge bases?|embeddings?|long[- ]context)\b/gi,
  },
  {
    id: 'training',
    label: 'Training and Fine-Tuning',
    phrase: 'training and fine-tuning',
    keywords:
      /\b(?:fine-?tun\w*|pre-?train\w*|post-?train\w*|reinforcement learning|rlhf|rlvr|reward models?|self-distillation|lora)\b/gi,
  },
  {
    id: 'interpretability',
    label: 'Inside the Models',
    phrase: 'interpretability',
    keywords:
      /\b(?:interpretab\w*|mechanistic|neurons?|circuits?|probing|sparse autoencoders?|steering vectors?)\b/gi,
  },
];

function countMatches(pattern: RegExp, text: string): number {
  return text.match(pattern)?.length ?? 0;
}

/** Theme ids an item carries, in table order. */
export function themesOf(item: { title: string; text: string }): string[] {
  // "Code and data are available at https://…" says nothing about the item's topic.
  const text = splitSentences(item.text)
    .filter((sentence) => !['boilerplate', 'contains a URL'].includes(rejectReason(sentence) ?? ''))
    .join(' ');
  return THEMES.filter(
    (theme) => countMatches(theme.keywords, item.title) > 0 || countMatches(theme.keywords, text) >= 2,
  ).map((theme) => theme.id);
}

export interface ThemeCount {
  theme: Theme;
  items: number;
}

/** Themes present in the items, most items first; ties keep table order. */
export function rankThemes(items: { title: string; text: string }[]): ThemeCount[] {
  const counts = new Map<string, number>();
  for (const item of items) for (const id of themesOf(item)) counts.set(id, (counts.get(id) ?? 0) + 1);
  return THEMES.filter((theme) => counts.has(theme.id))
    .map((theme) => ({ theme, items: counts.get(theme.id) ?? 0 }))
    .sort((a, b) => b.items - a.items);
}
