// An edition in another language, on the LLM client (purpose `translate`: cached, costed, budgeted): the title and
// intro in one call, each item's summary, takeaways and level reason in one call each. Names, numbers, code and
// quotes must come back verbatim (translation-check.ts); a field that loses one, or a call that fails, keeps the
// original text with a warning, so a translation is never less faithful than the edition.
import { z } from 'zod';
import type { Edition, EditionItem, EditionTranslation, TranslatedItem } from '../core/types.js';
import type { LlmClient, LlmClientModel } from '../llm/client.js';
import { callWithOneRepair, openingTurn } from './_one-repair.js';
import { asPromptData, renderPrompt } from './prompts.js';
import { missingSpans } from './translation-check.js';

type TranslationAnswer = { fields: Field[] };

/** Room a translation gets over its source: some languages take more characters for the same sentence. */
const TRANSLATION_GROWTH = 2;

/**
 * One entry per field asked, each no longer than twice the longest source text, so a grammar engine stops within a
 * known number of tokens (llm/token-bound.ts).
 */
function translationSchemaFor(fields: readonly Field[]): z.ZodType<TranslationAnswer> {
  const longest = Math.max(...fields.map((field) => field.text.length), 1);
  const ids = fields.map((field) => field.id) as [string, ...string[]];
  return z.object({
    fields: z
      .array(z.object({ id: z.enum(ids), text: z.string().max(longest * TRANSLATION_GROWTH + 40) }))
      .length(fields.length, `give exactly one entry for each of the ${fields.length} fields`),
  });
}

interface Field {
  id: string;
  text: string;
}

export interface TranslateOptions {
  llmClient: LlmClient;
  model: LlmClientModel;
  /** The language the edition is written in, and the one to translate into (BCP 47 tags). */
  from: string;
  to: string;
  audience: string;
  signal?: AbortSignal;
}

export interface TranslationResult {
  translation: EditionTranslation;
  /** Fields kept in the original language, and why. */
  warnings: string[];
}

const languageName = (tag: string) => {
  try {
    return `${new Intl.DisplayNames(['en'], { type: 'language' }).of(tag) ?? tag} (${tag})`;
  } catch {
    return tag;
  }
};

function fieldErrors(fields: readonly Field[], answer: TranslationAnswer): string[] {
  const errors: string[] = [];
  const given = new Map(answer.fields.map((field) => [field.id, field.text]));
  for (const field of fields) {
    const text = given.get(field.id);
    if (!text?.trim()) {
      errors.push(`field "${field.id}" is missing or empty; translate every field`);
      continue;
    }
    const missing = missingSpans(field.text, text);
    if (missing.length) {
      errors.push(
        `field "${field.id}" must keep ${missing.map((span) => `"${span}"`).join(', ')} exactly as written`,
      );
    }
  }
  return errors;
}

/** Translates a few fields in one call (one repair); what stays wrong keeps its original text. */
async function translateFields(
  fields: readonly Field[],
  what: string,
  options: TranslateOptions,
): Promise<{ texts: Map<string, string>; warnings: string[] }> {
  const prompt = renderPrompt('translate', {
    audience: asPromptData(options.audience),
    source_language: languageName(options.from),
    target_language: languageName(options.to),
    fields: fields.map((field) => `<field id="${field.id}">${asPromptData(field.text)}</field>`).join('\n'),
  });
  const { last, reason } = await callWithOneRepair(options.llmClient, options.model, {
    schema: translationSchemaFor(fields),
    schemaName: 'digest_translation',
    ...openingTurn(prompt),
    validate: (value) => fieldErrors(fields, value),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const given = new Map(last?.fields.map((field) => [field.id, field.text.trim()]) ?? []);
  const texts = new Map<string, string>();
  const warnings: string[] = [];
  for (const field of fields) {
    const text = given.get(field.id);
    const missing = text ? missingSpans(field.text, text) : [];
    if (text && missing.length === 0) texts.set(field.id, text);
    else {
      texts.set(field.id, field.text);
      warnings.push(
        `${options.to}: ${what} ${field.id} kept in ${options.from}: ${
          text
            ? `the translation lost ${missing.map((span) => `"${span}"`).join(', ')}`
            : reason || 'no translation'
        }`,
      );
    }
  }
  return { texts, warnings };
}

async function translateItem(
  item: EditionItem,
  options: TranslateOptions,
): Promise<{ text: TranslatedItem; warnings: string[] }> {
  const fields: Field[] = [
    { id: 'summary', text: item.summary },
    ...item.takeaways.map((text, index) => ({ id: `takeaway${index + 1}`, text })),
    ...(item.levelReason ? [{ id: 'levelReason', text: item.levelReason }] : []),
  ];
  const { texts, warnings } = await translateFields(fields, `"${item.title.slice(0, 60)}"`, options);
  return {
    text: {
      summary: texts.get('summary') ?? item.summary,
      takeaways: item.takeaways.map((text, index) => texts.get(`takeaway${index + 1}`) ?? text) as [
        string,
        string,
        string,
      ],
      ...(item.levelReason ? { levelReason: texts.get('levelReason') ?? item.levelReason } : {}),
    },
    warnings,
  };
}

export async function translateEdition(
  edition: Edition,
  options: TranslateOptions,
): Promise<TranslationResult> {
  const [header, ...items] = await Promise.all([
    translateFields(
      [
        { id: 'title', text: edition.title },
        { id: 'intro', text: edition.intro },
      ],
      'the edition',
      options,
    ),
    ...edition.items.map((item) => translateItem(item, options)),
  ]);
  return {
    translation: {
      language: options.to,
      title: header!.texts.get('title') ?? edition.title,
      intro: header!.texts.get('intro') ?? edition.intro,
      items: Object.fromEntries(edition.items.map((item, index) => [item.key, items[index]!.text])),
      writer: options.model.modelId,
    },
    warnings: [...header!.warnings, ...items.flatMap((item) => item.warnings)],
  };
}
