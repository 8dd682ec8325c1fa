import { type ModelCallOptions, parseUsd, type WeekOptions, weekCommand } from '../options.js';

/** Where the items come from: the sources, enrichment, the network at all. */
interface GatherOptions {
  ingest: boolean;
  enrich: boolean;
  offline?: boolean;
}

interface BuildCommandOptions extends WeekOptions, GatherOptions, ModelCallOptions {
  model?: string;
  retryFailed?: boolean;
}

export const register = weekCommand<BuildCommandOptions>({
  name: 'build',
  out: {
    description: "the draft's folder: its page and edition.json (the site is written by publish)",
    folder: 'drafts',
  },
  flags: (own) =>
    own
      .option('--no-ingest', 'build from what is already stored')
      .option('--no-enrich', 'skip arXiv, citation and page look-ups')
      .option(
        '--offline',
        'make no network request: build from what is stored (no ingest, enrichment, images or LLM calls)',
      )
      .option('--model <id>', 'LLM for writing, as provider:model (e.g. openai:gpt-4.1-mini)')
      .option('--no-check', 'skip the faithfulness check of LLM output')
      .option('--refresh', 'ask every LLM call again (ignore cached answers)')
      .option('--retry-failed', 'ask again only the LLM calls whose cached answer was unusable')
      .option('--max-cost <usd>', 'stop LLM spending at this amount (rest: extractive)', parseUsd),
  open: (options) => ({ offline: options.offline ?? false }),
  run: async (digest, { week, options, outDir, context }) => {
    const offline = options.offline ?? false;
    const outcome = await digest.build({
      week,
      outDir,
      // Offline, the sources are not asked either: the build uses the items already stored.
      ingest: options.ingest && !offline,
      enrich: options.enrich,
      offline,
      check: options.check,
      refresh: options.refresh ?? false,
      llm: {
        retryFailed: options.retryFailed ?? false,
        ...(options.model ? { model: options.model } : {}),
        ...(options.maxCost !== undefined ? { maxCost: options.maxCost } : {}),
      },
    });
    context.stdout.write(`${outcome.pagePath}\n`);
    // The edition is built either way; status 3 tells a scheduler that some items (or too few) need an editor's look.
    if (outcome.degraded || outcome.thin) context.exitCode = 3;
  },
});
