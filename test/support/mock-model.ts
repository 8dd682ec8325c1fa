// MockLanguageModelV3 (from ai/test) answering with the fake LLM's brain, for logic tests without HTTP.
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { answerFor, type FakeBehaviour, kindOf, type PromptKind, tokensOf } from './fake-llm-answers.js';

export interface MockCall {
  kind: PromptKind;
  system: string;
  user: string;
  lastUser: string;
  options: LanguageModelV3CallOptions;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: string; text?: string }) => (part.type === 'text' ? (part.text ?? '') : ''))
    .join('');
}

export function scriptedModel(
  modelId: string,
  script: (call: MockCall, index: number) => FakeBehaviour | Error = () => 'valid',
): { model: MockLanguageModelV3; calls: MockCall[] } {
  const calls: MockCall[] = [];
  const perKind = new Map<PromptKind, number>();
  const model = new MockLanguageModelV3({
    provider: 'mock',
    modelId,
    doGenerate: async (options) => {
      const system = options.prompt
        .filter((message) => message.role === 'system')
        .map((message) => textOf(message.content))
        .join('\n');
      const users = options.prompt
        .filter((message) => message.role === 'user')
        .map((message) => textOf(message.content));
      const call: MockCall = {
        kind: kindOf(system),
        system,
        user: users.join('\n'),
        lastUser: users.at(-1) ?? '',
        options,
      };
      calls.push(call);
      const index = perKind.get(call.kind) ?? 0;
      perKind.set(call.kind, index + 1);
      const behaviour = script(call, index);
      if (behaviour instanceof Error) throw behaviour;
      if (typeof behaviour === 'object' || behaviour === 'hang')
        throw new Error('use the HTTP fake for HTTP behaviours');
      const text = answerFor(call.kind, call.user, behaviour);
      const tokensIn = tokensOf(system + call.user);
      const tokensOut = tokensOf(text);
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: tokensIn, noCache: tokensIn, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: tokensOut, text: tokensOut, reasoning: 0 },
        },
        warnings: [],
      };
    },
  });
  return { model, calls };
}
