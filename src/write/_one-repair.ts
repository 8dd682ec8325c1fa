// A structured call with one repair: an answer that breaks the rules is shown its errors and asked once more.
// The item, the edition header and the translations all talk to the model this way.
import type { ModelMessage } from 'ai';
import type { LlmClient, LlmClientModel } from '../llm/client.js';
import { type CallOutcome, callStructured, type StructuredRequest } from '../llm/structured-call.js';

export interface RepairedCall<T> {
  /** The last outcome: 'ok', 'invalid' after the repair, or 'failed'. */
  outcome: CallOutcome<T>;
  /** The conversation with the last answer in it (a later regeneration goes on from there). */
  conversation: ModelMessage[];
  /** The last outcome is the repair round's. */
  repaired: boolean;
  /** The last value the model gave, valid or not. */
  last: T | undefined;
  /** Why there is no valid answer: the failure, else the rules the last broken answer broke ('' when none). */
  reason: string;
}

/** A rendered prompt as a request's opening: its system message, its version and the first user turn. */
export function openingTurn(prompt: { system: string; user: string; version: string }) {
  const messages: ModelMessage[] = [{ role: 'user', content: prompt.user }];
  return { system: prompt.system, promptVersion: prompt.version, messages };
}

function repairMessage(errors: string[]): string {
  return [
    'Your answer broke these rules:',
    ...errors.map((error) => `- ${error}`),
    'Answer again with the corrected JSON object only.',
  ].join('\n');
}

export async function callWithOneRepair<T>(
  llmClient: LlmClient,
  model: LlmClientModel,
  request: StructuredRequest<T>,
): Promise<RepairedCall<T>> {
  let conversation = request.messages;
  let last: T | undefined;
  let reason = '';
  for (let attempt = 0; ; attempt += 1) {
    const outcome = await callStructured(llmClient, model, { ...request, messages: conversation });
    const repaired = attempt > 0;
    if (outcome.kind === 'failed') return { outcome, conversation, repaired, last, reason: outcome.error };
    last = outcome.value ?? last;
    const answered: ModelMessage[] = [
      ...conversation,
      { role: 'assistant', content: outcome.text || '(empty)' },
    ];
    if (outcome.kind === 'invalid') reason = outcome.errors.join('; ');
    if (outcome.kind === 'ok' || repaired) return { outcome, conversation: answered, repaired, last, reason };
    conversation = [...answered, { role: 'user', content: repairMessage(outcome.errors) }];
  }
}
