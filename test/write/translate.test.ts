// Translating an edition on the LLM client (purpose `translate`), with the fake LLM's brain under MockLanguageModelV3:
// names, numbers, code and quotes must come back verbatim, else the field keeps its original text with a warning.
import { describe, expect, it } from 'vitest';
import { translateEdition } from '../../src/write/translate.js';
import { missingSpans, protectedSpans } from '../../src/write/translation-check.js';
import { useTestStore } from '../support/database.js';
import { mockClient } from '../support/fake-llm-client.js';
import { referenceEdition } from '../support/reference-edition.js';

const MODEL = 'openai:gpt-4.1-mini';

describe('what a translation must keep', () => {
  it('finds numbers, method and model names, code and quoted text; ordinary words are free', () => {
    const source =
      'FlashRT cuts memory by 3.5x on GPT-4o and Llama3 with LoRA (rank 16, 95% of runs); see `run_eval()` and "the last harness". The model is fast.';
    expect(protectedSpans(source).sort()).toEqual(
      [
        '3.5',
        '16',
        '95%',
        'FlashRT',
        'GPT-4o',
        'Llama3',
        'LoRA',
        'run_eval()',
        'the last harness',
        'run_eval',
      ].sort(),
    );
    expect(missingSpans(source, source)).toEqual([]);
    expect(missingSpans('LoRA at 3.5 GB', 'LoRA bei 3,5 GB')).toEqual(['3.5']);
    expect(missingSpans('The model is fast.', 'Das Modell ist schnell.')).toEqual([]);
  });
});

describe('translateEdition', () => {
  const store = useTestStore('pglite');
  const edition = referenceEdition();

  it('translates the title, intro and every item on the translate purpose, keeping names and numbers', async () => {
    const { llmClient, calls } = mockClient(store(), undefined, { modelId: MODEL });
    const result = await translateEdition(edition, {
      llmClient,
      model: llmClient.model('translate')!,
      from: 'en',
      to: 'de',
      audience: 'engineers',
    });
    expect(result.warnings).toEqual([]);
    expect(calls.filter((call) => call.kind === 'translate')).toHaveLength(edition.items.length + 1);
    expect(llmClient.usage().byPurpose.translate?.calls).toBe(edition.items.length + 1);
    const { translation } = result;
    expect(translation).toMatchObject({ language: 'de', writer: MODEL });
    expect(translation.title).toMatch(/^\[de\] /);
    for (const item of edition.items) {
      const text = translation.items[item.key]!;
      expect(text.summary).toMatch(/^\[de\] /);
      expect(text.summary).not.toBe(item.summary);
      expect(missingSpans(item.summary, text.summary)).toEqual([]);
      for (const [index, line] of text.takeaways.entries()) {
        expect(missingSpans(item.takeaways[index]!, line)).toEqual([]);
      }
    }
    // A second translation of the same edition is answered from the cache.
    const before = calls.length;
    const again = mockClient(store(), undefined, { modelId: MODEL });
    await translateEdition(edition, {
      llmClient: again.llmClient,
      model: again.llmClient.model('translate')!,
      from: 'en',
      to: 'de',
      audience: 'engineers',
    });
    expect(again.calls).toHaveLength(0);
    expect(calls).toHaveLength(before);
  });

  it('a translation that loses a number or a name is repaired once, then that field keeps the original', async () => {
    const { llmClient, calls } = mockClient(
      store(),
      (call) => (call.kind === 'translate' ? 'lossy' : 'valid'),
      {
        modelId: MODEL,
      },
    );
    const result = await translateEdition(edition, {
      llmClient,
      model: llmClient.model('translate')!,
      from: 'en',
      to: 'de',
      audience: 'engineers',
    });
    const lossyItem = edition.items.find((item) => protectedSpans(item.summary).length > 0)!;
    expect(result.translation.items[lossyItem.key]!.summary).toBe(lossyItem.summary);
    expect(
      result.warnings.some((warning) => /^de: ".*" summary kept in en: the translation lost "/.test(warning)),
    ).toBe(true);
    // Two calls (the answer and one repair) for each set of fields that lost something, one for the others.
    const translateCalls = calls.filter((call) => call.kind === 'translate').length;
    expect(translateCalls).toBeGreaterThan(edition.items.length + 1);
    expect(translateCalls).toBeLessThanOrEqual(2 * (edition.items.length + 1));
    // A field with nothing to keep is translated all the same.
    const free = Object.values(result.translation.items).flatMap((item) => item.takeaways);
    expect(free.some((line) => line.startsWith('[de] '))).toBe(true);
  });
});
