// A loopback fake LLM speaking OpenAI chat completions (POST /v1/chat/completions, also what Ollama and
// OpenAI-compatible servers speak), OpenAI responses (POST /v1/responses, the openai provider's default) and
// Anthropic messages (POST /v1/messages), and embeddings (POST /v1/embeddings, fake-embeddings.ts). Scriptable per
// request, fixed latency, reports token usage, counts requests. With `slots` it is a fake of a llama.cpp-like engine:
// that many requests worked on at once, the rest in its queue, and `GET /props` reporting `total_slots`.
import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import {
  embeddingAnswer,
  type FakeEmbeddingBehaviour,
  type FakeEmbeddingRequest,
  parseEmbeddingRequest,
} from './fake-embeddings.js';
import { answerFor, type FakeBehaviour, kindOf, type PromptKind, tokensOf } from './fake-llm-answers.js';
import { type LoopbackRequest, startLoopback } from './loopback.js';

export type { FakeEmbeddingBehaviour, FakeEmbeddingRequest } from './fake-embeddings.js';
export type { FakeBehaviour, PromptKind } from './fake-llm-answers.js';

export type FakeApi = 'chat' | 'responses' | 'anthropic';

export interface FakeLlmRequest {
  api: FakeApi;
  kind: PromptKind;
  model: string;
  system: string;
  /** Every user message, joined. */
  user: string;
  /** The last user message (the repair or feedback message on a second attempt). */
  lastUser: string;
  /** The JSON body as sent (to assert the schema reached the server). */
  body: Record<string, unknown>;
  headers: LoopbackRequest['headers'];
  /** Date.now() when the request arrived. */
  at: number;
}

export interface FakeLlmOptions {
  /** Delay before each answer (ms); with `slots`, the time each request holds a slot. */
  latencyMs?: number;
  /**
   * Requests worked on at once, like a llama.cpp server with that many slots: the others wait in its queue (a request
   * whose client hung up while it waited is dropped). Unset: every request at once.
   */
  slots?: number;
  /** Answer `GET /props` with `{ total_slots: slots }`, as llama.cpp's server does (default: when `slots` is set). */
  reportSlots?: boolean;
  /** Behaviour of each request; `index` counts requests of the same kind, from 0. Default: always 'valid'. */
  script?: (request: FakeLlmRequest, index: number) => FakeBehaviour;
  /** Behaviour of each embeddings request; `index` counts them from 0. Default: always 'valid'. */
  embeddingScript?: ((request: FakeEmbeddingRequest, index: number) => FakeEmbeddingBehaviour) | undefined;
}

export interface FakeLlm {
  origin: string;
  /** For OPENAI_BASE_URL, OLLAMA_BASE_URL and llm.openaiCompatible.baseURL. */
  baseURL: string;
  /** Chat, responses and messages requests (embeddings are in `embeddings`). */
  requests: FakeLlmRequest[];
  embeddings: FakeEmbeddingRequest[];
  /** Most chat/responses/messages requests open at the same time (answered or waiting for a slot). */
  peakOpen(): number;
  count(kind?: PromptKind): number;
  close(): Promise<void>;
}

type Message = { role?: string; content?: unknown };

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: { text?: unknown; type?: string }) => (typeof part?.text === 'string' ? part.text : ''))
      .join('');
  }
  return '';
}

function parseRequest(api: FakeApi, incoming: LoopbackRequest): FakeLlmRequest {
  const body = JSON.parse(incoming.body) as Record<string, unknown>;
  const messages = ((api === 'responses' ? body.input : body.messages) ?? []) as Message[];
  const systemParts = messages.filter((message) => message.role === 'system' || message.role === 'developer');
  const system = [
    textOf(body.system),
    textOf(body.instructions),
    ...systemParts.map((m) => textOf(m.content)),
  ]
    .filter(Boolean)
    .join('\n');
  const users = messages
    .filter((message) => message.role === 'user')
    .map((message) => textOf(message.content));
  return {
    api,
    kind: kindOf(system),
    model: String(body.model ?? ''),
    system,
    user: users.join('\n'),
    lastUser: users.at(-1) ?? '',
    body,
    headers: incoming.headers,
    at: Date.now(),
  };
}

function send(
  response: ServerResponse,
  status: number,
  payload: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(payload));
}

function answerBody(request: FakeLlmRequest, text: string) {
  const tokensIn = tokensOf(request.system + request.user);
  const tokensOut = tokensOf(text);
  if (request.api === 'chat') {
    return {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 1_777_000_000,
      model: request.model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: tokensIn, completion_tokens: tokensOut, total_tokens: tokensIn + tokensOut },
    };
  }
  if (request.api === 'responses') {
    return {
      id: 'resp_fake',
      object: 'response',
      created_at: 1_777_000_000,
      status: 'completed',
      model: request.model,
      output: [
        {
          type: 'message',
          id: 'msg_fake',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text, annotations: [] }],
        },
      ],
      usage: { input_tokens: tokensIn, output_tokens: tokensOut, total_tokens: tokensIn + tokensOut },
    };
  }
  const tools = (request.body.tools ?? []) as { name?: string }[];
  const viaTool = tools.some((tool) => tool.name === 'json');
  let input: unknown = null;
  if (viaTool) {
    try {
      input = JSON.parse(text);
    } catch {
      input = { raw: text };
    }
  }
  return {
    type: 'message',
    id: 'msg_fake',
    role: 'assistant',
    model: request.model,
    content: viaTool
      ? [{ type: 'tool_use', id: 'toolu_fake', name: 'json', input }]
      : [{ type: 'text', text }],
    stop_reason: viaTool ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: tokensIn, output_tokens: tokensOut },
  };
}

function errorBody(api: FakeApi, status: number) {
  const type = status === 429 ? 'rate_limit_error' : 'server_error';
  return api === 'anthropic'
    ? { type: 'error', error: { type, message: `fake ${status}` } }
    : { error: { message: `fake ${status}`, type, code: String(status) } };
}

/** Writes chunks until `total` bytes are out or the client hung up, waiting for the socket to drain. */
async function stream(response: ServerResponse, chunk: Buffer, total: number): Promise<void> {
  let sent = 0;
  while (sent < total && !response.destroyed) {
    sent += chunk.length;
    if (!response.write(chunk)) {
      await new Promise<void>((resolve) => {
        response.once('drain', resolve);
        response.once('close', resolve);
      });
    }
  }
  if (!response.destroyed) response.end();
}

let bombMember: Buffer | undefined;

const HOSTILE = {
  drip(response: ServerResponse): Promise<void> {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{');
    return new Promise<void>((resolve) => {
      const timer = setInterval(() => response.write(' '), 1_000);
      response.on('close', () => {
        clearInterval(timer);
        resolve();
      });
    });
  },
  huge(response: ServerResponse): Promise<void> {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{"id":"chatcmpl-fake","choices":[{"message":{"role":"assistant","content":"');
    return stream(response, Buffer.alloc(1 << 20, 'a'), 300 * (1 << 20));
  },
  'gzip-bomb'(response: ServerResponse): Promise<void> {
    // Gzip members concatenated decode to their contents concatenated: 64 × 16 MB of spaces ≈ 1 MB on the wire.
    bombMember ??= gzipSync(Buffer.alloc(16 << 20, ' '), { level: 9 });
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    return stream(response, bombMember, bombMember.length * 64);
  },
} as const;

const ROUTES: Record<string, FakeApi> = {
  '/v1/chat/completions': 'chat',
  '/v1/responses': 'responses',
  '/v1/messages': 'anthropic',
};

/** A server's slots: `take()` resolves when one is free; `give()` hands it to the next in line. */
function slotQueue(slots: number | undefined) {
  let free = slots ?? Number.POSITIVE_INFINITY;
  const line: (() => void)[] = [];
  return {
    take: () =>
      new Promise<void>((resolve) => {
        if (free > 0) {
          free -= 1;
          resolve();
        } else line.push(resolve);
      }),
    give: () => {
      const next = line.shift();
      if (next) next();
      else free += 1;
    },
  };
}

export async function startFakeLlm(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  const requests: FakeLlmRequest[] = [];
  const embeddings: FakeEmbeddingRequest[] = [];
  const perKind = new Map<PromptKind, number>();
  const slots = slotQueue(options.slots);
  let open = 0;
  let peak = 0;
  const server = await startLoopback(async (incoming: LoopbackRequest, response) => {
    if (incoming.path === '/props' && incoming.method === 'GET') {
      if (options.slots && options.reportSlots !== false) {
        send(response, 200, { total_slots: options.slots, model_path: 'fake.gguf' });
      } else send(response, 404, { error: { message: 'no route /props', type: 'not_found', code: '404' } });
      return;
    }
    if (incoming.path === '/v1/embeddings' && incoming.method === 'POST') {
      const request = parseEmbeddingRequest(incoming);
      embeddings.push(request);
      const answer = embeddingAnswer(
        request,
        options.embeddingScript?.(request, embeddings.length - 1) ?? 'valid',
      );
      if (!answer) return new Promise<void>((resolve) => response.on('close', resolve));
      if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
      send(response, answer.status, answer.body);
      return;
    }
    const api = ROUTES[incoming.path];
    if (!api || incoming.method !== 'POST') {
      send(response, 404, {
        error: { message: `no route ${incoming.path}`, type: 'not_found', code: '404' },
      });
      return;
    }
    open += 1;
    peak = Math.max(peak, open);
    response.on('close', () => {
      open -= 1;
    });
    await slots.take();
    try {
      // A client that gave up while waiting for a slot is not worked on (its slot goes to the next in line).
      if (response.destroyed) return;
      await answer(api, incoming, response);
    } finally {
      slots.give();
    }
  });

  async function answer(api: FakeApi, incoming: LoopbackRequest, response: ServerResponse): Promise<void> {
    const request = parseRequest(api, incoming);
    requests.push(request);
    const index = perKind.get(request.kind) ?? 0;
    perKind.set(request.kind, index + 1);
    const behaviour = options.script?.(request, index) ?? 'valid';
    if (behaviour === 'hang') return new Promise<void>((resolve) => response.on('close', resolve));
    if (behaviour === 'drip' || behaviour === 'huge' || behaviour === 'gzip-bomb') {
      return HOSTILE[behaviour](response);
    }
    if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
    if (typeof behaviour === 'object') {
      const headers: Record<string, string> = behaviour.retryAfter
        ? { 'retry-after': behaviour.retryAfter }
        : {};
      send(response, behaviour.status, errorBody(api, behaviour.status), headers);
      return;
    }
    send(response, 200, answerBody(request, answerFor(request.kind, request.user, behaviour)));
  }
  return {
    origin: server.origin,
    baseURL: `${server.origin}/v1`,
    requests,
    embeddings,
    peakOpen: () => peak,
    count: (kind) => (kind ? requests.filter((request) => request.kind === kind).length : requests.length),
    close: () => server.close(),
  };
}
