// Reading level from vocabulary, for the extractive writer (and the LLM writer's fallback).
//
// Heuristics, in order:
//  1. Advanced: formal / theoretical vocabulary (theorem, proof, bound, convergence, variational, …) or math
//     notation appears at least 4 times, or at least 2 times at a density of ≥ 1.5 hits per 100 words.
//  2. Accessible: how-to / tutorial / announcement / product vocabulary ("how to", "we're launching", "available
//     today", "case study", …) appears at least twice (once for a post without an arXiv id), and the formal
//     vocabulary at most once.
//  3. Otherwise Intermediate: technical but applied (most papers).

import type { Level } from '../core/types.js';
import { wordCount } from './sentences.js';

const FORMAL =
  /\b(?:theorems?|lemmas?|corollar(?:y|ies)|proofs?|provabl[ey]|prove[sd]?|upper bounds?|lower bounds?|bounds?|convergence|converges?|asymptotic\w*|regret|variational|stochastic|markov|bayesian|manifolds?|kl(?:[- ]divergence)?|divergence|closed-form|convex\w*|non-convex|hessians?|eigen\w*|equivarian\w*|lipschitz|gaussian|posterior|likelihood|minimax|formalism|formally|axiom\w*|polynomial|np-hard|sample complexity|optimal policy|geometric|subspaces?|spectral|tensor\w*|factorial|theoretical(?:ly)?)\b/gi;
const NOTATION = /[∑∏∫∂∇≤≥≈∞∈θλσμβαγεδ]|\bO\([^)]*\)/g;
const ACCESSIBLE =
  /\b(?:how to|how-to|tutorial|guide|walkthrough|step[- ]by[- ]step|beginners?|introduction to|getting started|announc\w*|launch\w*|available today|now available|rolling out|we'?re (?:excited|releasing|launching|introducing)|customers?|pricing|product|case study|case studies|hands-on|personal|lessons learned|in practice|you can|your)\b/gi;

export interface LevelDecision {
  level: Level;
  reason: string;
}

function distinctHits(pattern: RegExp, text: string): string[] {
  return [...new Set((text.match(pattern) ?? []).map((hit) => hit.toLowerCase()))];
}

export function judgeLevel(item: { title: string; text: string; arxivId: string | null }): LevelDecision {
  const text = `${item.title}. ${item.text}`;
  const words = Math.max(1, wordCount(text));
  const formalHits = (text.match(FORMAL) ?? []).length + (text.match(NOTATION) ?? []).length;
  const density = (formalHits / words) * 100;
  const formalWords = [...distinctHits(FORMAL, text), ...distinctHits(NOTATION, text)].slice(0, 3);
  if (formalHits >= 4 || (formalHits >= 2 && density >= 1.5)) {
    return {
      level: 'Advanced',
      reason: `formal/theory vocabulary (${formalWords.join(', ')}): ${formalHits} hits, ${density.toFixed(1)} per 100 words`,
    };
  }
  const accessibleHits = (text.match(ACCESSIBLE) ?? []).length;
  const accessibleWords = distinctHits(ACCESSIBLE, text).slice(0, 3);
  const needed = item.arxivId ? 2 : 1;
  if (accessibleHits >= needed && formalHits <= 1) {
    return {
      level: 'Accessible',
      reason: `how-to/announcement vocabulary (${accessibleWords.join(', ')}) and little formal vocabulary`,
    };
  }
  return {
    level: 'Intermediate',
    reason: `applied technical text: ${formalHits} formal-vocabulary hits, ${accessibleHits} how-to/announcement hits`,
  };
}
