// After an edition is written and checked: its text in every other configured language (`languages`), stored
// beside it. Offline or without a model only the first language is published, and the build says so.
import type { Edition } from '../core/types.js';
import type { LlmClient } from '../llm/client.js';
import type { TranslateDeps } from './ports.js';

export async function translateLanguages(
  deps: TranslateDeps,
  edition: Edition,
  llmClient: LlmClient,
): Promise<string[]> {
  const [written = 'en', ...others] = deps.config.languages;
  if (others.length === 0) return [];
  const model = llmClient.model('translate');
  if (!model) {
    deps.log.info(
      `Languages: only ${written} is published; translating to ${others.join(', ')} needs a model (offline, or no LLM configured).`,
    );
    return [];
  }
  deps.log.info(`› translate into ${others.join(', ')}`);
  const { translateEdition } = await import('../write/translate.js');
  const warnings: string[] = [];
  await Promise.all(
    others.map(async (language) => {
      const result = await translateEdition(edition, {
        llmClient,
        model,
        from: written,
        to: language,
        audience: deps.config.audience,
        ...(deps.signal ? { signal: deps.signal } : {}),
      });
      await deps.store.translations.save(edition.date, result.translation, result.warnings);
      warnings.push(...result.warnings);
    }),
  );
  return warnings;
}
