// Reading level, for the extractive writer (and the LLM writer's fallback). The rule is documented in
// docs/levels.md; in short, from the kind of item and how much a reader must already know:
//  1. Advanced: theory-heavy — formal vocabulary or maths notation (theorem, proof, bound, convergence,
//     variational, ∑, O(n) …) at least 4 times, or at least 2 times at ≥ 1.5 per 100 words.
//  2. Accessible, for a post (no arXiv id): hands-on, explainer or announcement vocabulary ("how to", "I built",
//     "tutorial", "lessons", "we're launching", …) at least once and formal vocabulary at most once.
//  3. Accessible, for a paper: a practice report — deployment / users / real-world / case-study vocabulary at least
//     4 times and ≥ 2.5 per 100 words — with little jargon (under 3 acronyms or CamelCase terms per 100 words)
//     and formal vocabulary at most once.
//  4. Otherwise Intermediate: technical but applied, the prerequisite is knowing how LLM systems are built.

import type { Level } from '../core/types.js';
import { wordCount } from './sentences.js';

const FORMAL =
  /\b(?:theorems?|lemmas?|corollar(?:y|ies)|proofs?|provabl[ey]|prove[sd]?|upper bounds?|lower bounds?|bounds?|convergence|converges?|asymptotic\w*|regret|variational|stochastic|markov|bayesian|manifolds?|kl(?:[- ]divergence)?|divergence|closed-form|convex\w*|non-convex|hessians?|eigen\w*|equivarian\w*|lipschitz|gaussian|posterior|likelihood|minimax|formalism|formally|axiom\w*|polynomial|np-hard|sample complexity|optimal policy|geometric|subspaces?|spectral|tensor\w*|factorial|theoretical(?:ly)?)\b/gi;
const NOTATION = /[∑∏∫∂∇≤≥≈∞∈θλσμβαγεδ]|\bO\([^)]*\)/g;
const HANDS_ON =
  /\b(?:how to|how-to|tutorial|guide|walkthrough|step[- ]by[- ]step|beginners?|introduction to|getting started|announc\w*|launch\w*|available today|now available|rolling out|we'?re (?:excited|releasing|launching|introducing)|customers?|pricing|product|case study|case studies|hands-on|personal|lessons learned|in practice|you can|your|i built|i tried|i wrote|explain\w*|explainer)\b/gi;
const PRACTICE_REPORT =
  /\b(?:case stud(?:y|ies)|deploy(?:ment|ed)|in production|real[- ]world|field (?:study|deployment)|lessons?|users?|customers?|practitioners?|real (?:capital|money|users|traffic)|live)\b/gi;
/** Acronyms and CamelCase names ("RLHF", "ViT", "LoRA"): terms a reader must already know. */
const JARGON = /\b[A-Z][A-Za-z]*[A-Z][A-Za-z0-9-]*\b/g;

export interface LevelDecision {
  level: Level;
  reason: string;
}

function distinctHits(pattern: RegExp, text: string): string[] {
  return [...new Set((text.match(pattern) ?? []).map((hit) => hit.toLowerCase()))];
}

const per100 = (hits: number, words: number) => (hits / words) * 100;

export function judgeLevel(item: { title: string; text: string; arxivId: string | null }): LevelDecision {
  const text = `${item.title}. ${item.text}`;
  const words = Math.max(1, wordCount(text));
  const formalHits = (text.match(FORMAL) ?? []).length + (text.match(NOTATION) ?? []).length;
  const density = per100(formalHits, words);
  const formalWords = [...distinctHits(FORMAL, text), ...distinctHits(NOTATION, text)].slice(0, 3);
  if (formalHits >= 4 || (formalHits >= 2 && density >= 1.5)) {
    return {
      level: 'Advanced',
      reason: `formal/theory vocabulary (${formalWords.join(', ')}): ${formalHits} hits, ${density.toFixed(1)} per 100 words`,
    };
  }
  const jargon = per100((text.match(JARGON) ?? []).length, words);
  if (!item.arxivId) {
    const handsOn = (text.match(HANDS_ON) ?? []).length;
    if (handsOn >= 1 && formalHits <= 1) {
      return {
        level: 'Accessible',
        reason: `a post with how-to/announcement vocabulary (${distinctHits(HANDS_ON, text).slice(0, 3).join(', ')}) and little formal vocabulary`,
      };
    }
  } else {
    const report = (text.match(PRACTICE_REPORT) ?? []).length;
    if (report >= 4 && per100(report, words) >= 2.5 && jargon < 3 && formalHits <= 1) {
      return {
        level: 'Accessible',
        reason: `a practice report (${distinctHits(PRACTICE_REPORT, text).slice(0, 3).join(', ')}: ${report} hits) with little jargon (${jargon.toFixed(1)} terms per 100 words)`,
      };
    }
  }
  return {
    level: 'Intermediate',
    reason: `applied technical text: ${formalHits} formal-vocabulary hits, ${jargon.toFixed(1)} acronyms per 100 words`,
  };
}
