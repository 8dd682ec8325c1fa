import { describe, expect, it } from 'vitest';
import { cleanSourceText } from '../../src/write/clean-text.js';
import { writeItemExtractively } from '../../src/write/extractive-item.js';
import { readerVoice } from '../../src/write/extractive-voice.js';
import { normaliseText, rejectReason, splitSentences, wordCount } from '../../src/write/sentences.js';
import { hfItems, seedWeekItem } from '../support/real-items.js';

const papers = [...hfItems('daily_papers_2026-07-31.json'), ...hfItems('daily_papers_2026-06-12.json')];

describe('splitSentences', () => {
  it('keeps abbreviations, initials and decimals inside sentences', () => {
    const text =
      'Prior work (Smith et al. 2024) uses e.g. retrieval vs. fine-tuning. Accuracy rises to 4.51 points, cf. Fig. 3 for details. T. J. Barton ran it. Done!';
    expect(splitSentences(text)).toEqual([
      'Prior work (Smith et al. 2024) uses e.g. retrieval vs. fine-tuning.',
      'Accuracy rises to 4.51 points, cf. Fig. 3 for details.',
      'T. J. Barton ran it.',
      'Done!',
    ]);
  });

  it('splits after question marks, closing quotes and brackets, and every piece is a substring', () => {
    const text = 'Does it scale?  We say "yes." (Mostly.) The U.S. team agrees.\nThe end';
    const sentences = splitSentences(text);
    expect(sentences).toEqual([
      'Does it scale?',
      'We say "yes."',
      '(Mostly.)',
      'The U.S. team agrees.',
      'The end',
    ]);
    for (const sentence of sentences) expect(normaliseText(text)).toContain(sentence);
  });
});

describe('rejectReason', () => {
  it('drops URLs, boilerplate and fragments', () => {
    expect(rejectReason('The code is available at https://github.com/x/y.')).toBe('contains a URL');
    expect(
      rejectReason('Our code and trained models are publicly available at github.com/example/project now.'),
    ).toBe('contains a URL');
    expect(
      rejectReason('The code and the models will be made publicly available upon acceptance of this work.'),
    ).toBe('boilerplate');
    expect(rejectReason('The post Where the goblins came from appeared first on OpenAI News today.')).toBe(
      'boilerplate',
    );
    expect(rejectReason('Short one.')).toBe('too short');
    expect(rejectReason('We show that agents fail under long multi-day tasks.')).toBeNull();
  });
});

describe('LaTeX debris in real abstracts', () => {
  const byId = (id: string) => papers.find((paper) => paper.arxivId === id)!;

  it('unescapes \\% and LaTeX ties, and writes HF-mangled ×/≈ macros as symbols', () => {
    expect(normaliseText(byId('2607.26056').text)).toContain('reaches 96.86% macro success');
    expect(normaliseText(byId('2606.08039').text)).toContain('selecting (i) the physics model');
    expect(normaliseText(byId('2606.11409').text)).toContain('up to ~5× across harm');
    expect(normaliseText('a 1.2times-2.4times speedup, 5 times faster')).toBe(
      'a 1.2×-2.4× speedup, 5 times faster',
    );
    expect(normaliseText('see https://example.org/~user/x (~47k tools)')).toBe(
      'see https://example.org/~user/x (~47k tools)',
    );
  });

  it('rejects sentences that still carry markup the reader cannot read', () => {
    expect(rejectReason('The action supplies physical intent z_{t+1}-z_t to the policy head.')).toBe(
      'markup',
    );
    expect(rejectReason('We bound the error by $\\epsilon$ in every one of the settings.')).toBe('markup');
    expect(rejectReason('We bound the error by \\epsilon in every one of the settings.')).toBe('markup');
    expect(rejectReason('We bound the error by $k$ in every one of the settings.')).toBe('markup');
    expect(rejectReason('The agents moved $20M-$30M of real capital in three weeks.')).toBeNull();
  });

  it('leaves no LaTeX escape in what the extractive writer writes', () => {
    for (const paper of papers) {
      const written = writeItemExtractively(paper);
      for (const text of [written.summary, ...written.takeaways]) expect(text).not.toMatch(/\\|\$|[_^]\{/);
    }
  });
});

// Real defects of source text, each from a recorded fixture (test/fixtures/real/seed-week-2026-05-04, see its
// README for provenance), and what the one cleaning step both writers read makes of it.
describe('cleanSourceText on real abstracts', () => {
  const cases: { file: string; title: string; defect: string; cleaned: string }[] = [
    {
      file: 'hf-daily-rss-huangboming_2026-04-29.xml',
      title: 'ClawMark: A Living-World Benchmark for Multi-Turn, Multi-Day, Multimodal Coworker Agents',
      defect: 'We introduce , a benchmark',
      cleaned: 'We introduce ClawMark, a benchmark',
    },
    {
      file: 'hf-daily-rss-huangboming_2026-05-01.xml',
      title: 'ClawGym: A Scalable Framework for Building Effective Claw Agents',
      defect: 'sandboxes.To support',
      cleaned: 'sandboxes. To support',
    },
    {
      file: 'hf-daily-rss-huangboming_2026-04-30.xml',
      title: 'TCOD: Exploring Temporal Curriculum in On-Policy Distillation for Multi-turn Autonomous Agents',
      defect: 'schedule.Experimental results',
      cleaned: 'schedule. Experimental results',
    },
    {
      file: 'hf-daily-rss-huangboming_2026-05-04.xml',
      title:
        'FlashRT: Towards Computationally and Memory Efficient Red-Teaming for Prompt Injection and Knowledge Corruption',
      defect: '(LLMs)-for example, Gemini-3.1-Pro and Qwen-3.5-are',
      cleaned: '(LLMs) \u2014 for example, Gemini-3.1-Pro and Qwen-3.5 \u2014 are',
    },
    {
      file: 'hf-daily-rss-huangboming_2026-05-04.xml',
      title: 'Safety Drift After Fine-Tuning: Evidence from High-Stakes Domains',
      defect: 'practical sources of harm -- failures',
      cleaned: 'practical sources of harm \u2014 failures',
    },
  ];
  it.each(cases)('$defect → $cleaned', ({ file, title, defect, cleaned }) => {
    const item = seedWeekItem(file, title);
    expect(normaliseText(item.text)).toContain(defect);
    const clean = cleanSourceText(item.text, item.title);
    expect(clean).toContain(cleaned);
    expect(clean).not.toContain(defect);
    // Idempotent: the pipeline cleans once, the extractive writer may clean again.
    expect(cleanSourceText(clean, item.title)).toBe(clean);
  });

  it('drops a sentence whose dropped name the title cannot supply', () => {
    const item = seedWeekItem(cases[0]!.file, cases[0]!.title);
    const clean = cleanSourceText(item.text, 'A Living-World Benchmark for Coworker Agents');
    expect(clean).not.toMatch(/introduce ,|\s,\s/);
    expect(clean).toContain('Language-model agents are increasingly used');
  });

  it('decodes entities (twice-escaped too) and unwraps prose-like LaTeX', () => {
    expect(cleanSourceText('a &amp;quot;compass study&amp;quot; &amp;amp; more')).toBe(
      'a "compass study" & more',
    );
    expect(
      cleanSourceText('a \\emph{unified operational paradigm} and a $2\\times$ speedup with $k$ steps'),
    ).toBe('a unified operational paradigm and a 2× speedup with k steps');
    expect(cleanSourceText('about $20M-$30M in volume')).toBe('about $20M-$30M in volume');
  });
});

describe("the reader's voice", () => {
  it("turns the authors' first person into the third person, and refuses what it cannot turn", () => {
    expect(readerVoice('In this paper, we propose X, which improves our results.', 'paper')).toBe(
      'The authors propose X, which improves their results.',
    );
    expect(readerVoice('Our method achieves 20% gains.', 'paper')).toBe(
      "The authors' method achieves 20% gains.",
    );
    expect(readerVoice('I fine-tuned a 27B model and I really like how my results look.', 'post')).toBe(
      'The author fine-tuned a 27B model and the author really likes how their results look.',
    );
    expect(readerVoice('Type I errors increase.', 'paper')).toBe('Type I errors increase.');
    expect(readerVoice('Let us consider the case.', 'paper')).toBeNull();
  });
});

describe('wordCount', () => {
  it('counts what splitting the trimmed text on \\s counts, for every space and non-space character', () => {
    const bySplit = (text: string) => {
      const trimmed = text.trim();
      return trimmed ? trimmed.split(/\s+/).length : 0;
    };
    const texts = ['', '   ', 'one', ' two  words\n', 'a\u00a0b\u2003c\u3000d\ufeff', 'tab\tand\r\nbreaks'];
    for (let code = 0; code < 0x10000; code++) texts.push(`a${String.fromCharCode(code)}b`);
    texts.push(...papers.slice(0, 20).map((item) => item.text));
    const mismatches = texts.filter((text) => wordCount(text) !== bySplit(text));
    expect(mismatches).toEqual([]);
    expect(wordCount('a\u2003b c')).toBe(3);
  });
});
