// Edition title and intro through the model, after the items: validated (one repair), themes checked against the
// items, else the extractive header.
import type { WrittenItem } from '../core/types.js';
import type { LlmClient, LlmClientModel } from '../llm/client.js';
import { callWithOneRepair, openingTurn } from './_one-repair.js';
import { writeEditionExtractively } from './extractive-edition.js';
import { type EditionOutput, editionOutputSchema } from './output-schema.js';
import { asPromptData, renderPrompt } from './prompts.js';
import { rankThemes, THEMES } from './themes.js';
import type { EditionHeader, ItemForWriting } from './types.js';
import { validateEditionOutput } from './validate-output.js';

type EditionInput = ItemForWriting & WrittenItem;

export function buildEditionPrompt(items: EditionInput[], options: { name: string; audience: string }) {
  const themes = rankThemes(items)
    .map(({ theme, items: count }) => `${theme.phrase}: ${count}`)
    .join('; ');
  const listed = items
    .map(
      (item, index) =>
        `<item n="${index + 1}">\n<title>${asPromptData(item.title)}</title>\n<summary>${asPromptData(item.summary)}</summary>\n</item>`,
    )
    .join('\n');
  return renderPrompt('edition', {
    name: asPromptData(options.name),
    audience: asPromptData(options.audience),
    count: String(items.length),
    themes: themes || 'none of the usual themes',
    items: listed,
  });
}

/** Themes the header names (by the theme table's keywords) that no item's title, text or summary mentions. */
export function absentThemes(output: EditionOutput, items: EditionInput[]): string[] {
  const header = `${output.title} ${output.intro}`;
  const corpus = items.map((item) => `${item.title} ${item.text} ${item.summary}`).join('\n');
  return THEMES.filter((theme) => {
    const inHeader = (header.match(theme.keywords) ?? []).length > 0;
    return inHeader && (corpus.match(theme.keywords) ?? []).length === 0;
  }).map((theme) => theme.phrase);
}

function editionErrors(output: EditionOutput, items: EditionInput[]): string[] {
  const errors = validateEditionOutput(output);
  for (const phrase of absentThemes(output, items)) {
    errors.push(
      `the title or intro mentions ${phrase}, which none of the items is about; name only themes present`,
    );
  }
  return errors;
}

export async function writeEditionWithModel(
  items: EditionInput[],
  options: {
    llmClient: LlmClient;
    write: LlmClientModel;
    name: string;
    audience: string;
    signal?: AbortSignal;
  },
): Promise<EditionHeader & { notes: string[] }> {
  const prompt = buildEditionPrompt(items, options);
  const { outcome, reason } = await callWithOneRepair(options.llmClient, options.write, {
    schema: editionOutputSchema,
    schemaName: 'digest_edition',
    ...openingTurn(prompt),
    validate: (value) => editionErrors(value, items),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (outcome.kind === 'ok') {
    return {
      title: outcome.value.title.trim(),
      intro: outcome.value.intro.trim(),
      writer: outcome.modelId,
      notes: [],
    };
  }
  const header = writeEditionExtractively(items);
  return {
    ...header,
    notes: [
      `${options.write.modelId} could not write the title and intro (${reason}); written by the extractive writer.`,
    ],
  };
}
