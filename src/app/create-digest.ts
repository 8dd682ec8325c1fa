// The composition root's use cases: every entry point (CLI, server, jobs) calls these and nothing below them.
// Each use case's module is imported when first called, so a command loads only what it uses (mjml for email,
// the AI SDK for an LLM build, Readability for enrichment).
import type { BuildInput, BuildOutcome } from './build.js';
import type { AddInput, DecideInput } from './decide.js';
import type { ChatInput, ChatOutcome, PushInput, PushOutcome } from './deliver.js';
import type { DigestDeps } from './deps.js';
import type { Desk, DeskOptions } from './desk.js';
import type { EvalInput, ModelEvaluation } from './eval.js';
import type { ListInput, ListResult } from './list.js';
import type { EmailInput, EmailOutcome, PublishInput, PublishOutcome } from './publish.js';
import type { TasteInput, TasteOutcome } from './taste.js';

export function createDigest(deps: DigestDeps) {
  return {
    deps,
    build: async (input: BuildInput): Promise<BuildOutcome> =>
      (await import('./build.js')).build(deps, input),
    list: async (input: ListInput): Promise<ListResult> => (await import('./list.js')).list(deps, input),
    taste: async (input: TasteInput): Promise<TasteOutcome> =>
      (await import('./taste.js')).taste(deps, input),
    decide: async (input: DecideInput) => (await import('./decide.js')).decide(deps, input),
    add: async (input: AddInput) => (await import('./decide.js')).add(deps, input),
    publish: async (input: PublishInput): Promise<PublishOutcome> =>
      (await import('./publish.js')).publish(deps, input),
    email: async (input: EmailInput): Promise<EmailOutcome> =>
      (await import('./publish.js')).email(deps, input),
    chat: async (input: ChatInput): Promise<ChatOutcome> => (await import('./deliver.js')).chat(deps, input),
    push: async (input: PushInput): Promise<PushOutcome> => (await import('./deliver.js')).push(deps, input),
    evaluate: async (input: EvalInput): Promise<ModelEvaluation[]> =>
      (await import('./eval.js')).evaluate(deps, input),
    /** The editor's desk (`digest serve` /admin): build once per server, it holds the sign-in rate limits. */
    desk: async (options: DeskOptions): Promise<Desk> =>
      (await import('./desk.js')).createDesk(deps, options),
    editors: {
      add: async (input: { email: string; password: string }) =>
        (await import('./desk-editors.js')).addEditor(deps, input),
      list: async () => (await import('./desk-editors.js')).listEditors(deps),
      remove: async (input: { email: string }) =>
        (await import('./desk-editors.js')).removeEditor(deps, input),
    },
  };
}

export type Digest = ReturnType<typeof createDigest>;
