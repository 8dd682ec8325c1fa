// A LLM client over MockLanguageModelV3 (the fake LLM's brain, no HTTP): the whole stack — cache, usage, budget,
// limits, deadline — runs for real; only the provider underneath is the mock.
import type { LlmConfigInput } from '../../src/config/llm-schema.js';
import { silentLogger } from '../../src/core/ports.js';
import { createLlmClient, type LlmClientOptions, type LlmRun } from '../../src/llm/client.js';
import type { Store } from '../../src/store/types.js';
import type { FakeBehaviour } from './fake-llm-answers.js';
import { type MockCall, scriptedModel } from './mock-model.js';

/** The LLM client's options with this run's flags (`refresh`, `maxCostUsd`…) given flat. */
export interface MockRoadOptions extends Partial<Omit<LlmClientOptions, 'llm' | 'store' | 'run'>>, LlmRun {
  llm?: LlmConfigInput;
  /** The writing (and checking, triage) model id; `openai:` ids get a fake OPENAI_API_KEY. */
  modelId: string;
}

export function mockClient(
  store: Pick<Store, 'cache'>,
  script: ((call: MockCall, index: number) => FakeBehaviour | Error) | undefined,
  { llm, modelId, log, env, signal, engine, ...run }: MockRoadOptions,
) {
  const mock = scriptedModel(modelId, script);
  const llmClient = createLlmClient({
    llm: { write: modelId, ...llm },
    store,
    log: log ?? silentLogger,
    env: env ?? { OPENAI_API_KEY: 'test-key', ANTHROPIC_API_KEY: 'test-key' },
    engine: { languageModel: () => mock.model, ...engine },
    run,
    ...(signal ? { signal } : {}),
  });
  return { llmClient, calls: mock.calls, model: mock.model };
}
