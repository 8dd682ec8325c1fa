// How /mcp answers a request once it is admitted (mcp-route.ts holds the guards in front): a single message through
// the SDK's stateless transport, a batch one message at a time with a fast path for plain tool calls, and every
// answer capped at MCP_MAX_ANSWER_BYTES.
import type { Context } from 'hono';
import { type Archive, createMcpServer } from '../api/index.js';

const MCP_MAX_ANSWER_BYTES = 4 * 1024 * 1024;

type McpServer = import('@modelcontextprotocol/sdk/server/mcp.js').McpServer;
type ToolsCallHandler = (request: unknown, extra: Record<string, unknown>) => Promise<unknown>;
type Refuse = (c: Context, answer: { status: 413; message: string }) => Response;

export interface McpAnswerOptions {
  archive: Archive;
  version: string;
  maxBytes: number;
  /** How a refusal is written (JSON-RPC's error shape). */
  refuse: Refuse;
}

const TOO_LARGE = 'The answer would be too large; ask for fewer results.';

/** Answers one admitted request body (a message or a batch). */
export function createMcpAnswer(options: McpAnswerOptions): (c: Context, body: unknown) => Promise<Response> {
  const newServer = async () => await createMcpServer(options.archive, { version: options.version });
  /**
   * A batch is answered one message at a time, yielding in between: its calls do not all wait on the database at
   * once, so other routes (/healthz, the site) get their turn between two of them.
   */
  return async (c, body) => {
    if (!Array.isArray(body) || body.length < 2) {
      const response = await handle({
        raw: c.req.raw,
        body,
        server: await newServer(),
        maxBytes: options.maxBytes,
      });
      if (response.body === null) return response;
      const text = await response.text();
      if (text.length > MCP_MAX_ANSWER_BYTES) return options.refuse(c, { status: 413, message: TOO_LARGE });
      return new Response(text, { status: response.status, headers: response.headers });
    }
    const answers = await answerBatch({
      raw: c.req.raw,
      batch: body,
      server: await newServer(),
      maxBytes: options.maxBytes,
    });
    if (answers === null) return options.refuse(c, { status: 413, message: TOO_LARGE });
    // Notifications only: nothing to answer, as the transport says for them.
    if (answers.length === 0) return c.body(null, 202);
    return c.body(joinAnswers(answers), 200, {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
    });
  };
}

/** Each message's answer text, in order; null once they grow past MCP_MAX_ANSWER_BYTES. */
async function answerBatch({
  raw,
  batch,
  server,
  maxBytes,
}: {
  raw: Request;
  batch: unknown[];
  server: McpServer;
  maxBytes: number;
}) {
  const answers: string[] = [];
  let size = 0;
  for (const message of batch) {
    const called = await callTool(raw, message, server);
    if (called !== null) {
      size += called.length;
      if (size > MCP_MAX_ANSWER_BYTES) return null;
      answers.push(called);
      await new Promise<void>((resolve) => setImmediate(resolve));
      continue;
    }
    const response = await handle({ raw, body: message, server, maxBytes });
    if (response.body !== null) {
      const text = await response.text();
      size += text.length;
      if (size > MCP_MAX_ANSWER_BYTES) return null;
      if (text) answers.push(text);
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return answers;
}

/**
 * Bytes, not one joined string: joined, a batch's answer is a string large enough for V8's large-object space, which
 * only a full collection frees (bench mcp-abuse: the peak RSS of a flood of batches); a buffer's bytes are freed with
 * its small handle, which the next scavenge collects.
 */
function joinAnswers(answers: string[]): Uint8Array<ArrayBuffer> {
  const parts: Buffer[] = [];
  for (const [index, text] of answers.entries()) {
    parts.push(Buffer.from(index === 0 ? '[' : ','), Buffer.from(text));
  }
  parts.push(Buffer.from(']'));
  const bytes = Buffer.concat(parts);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** One JSON-RPC message (or a whole batch) through `server` on a fresh stateless transport. */
async function handle({
  raw,
  body,
  server,
  maxBytes,
}: {
  raw: Request;
  body: unknown;
  server: McpServer;
  maxBytes: number;
}): Promise<Response> {
  // Loaded on the first MCP request: `digest serve` without MCP clients never pays for the SDK.
  const { WebStandardStreamableHTTPServerTransport } = await import(
    '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
  );
  // No sessionIdGenerator: stateless, every request stands alone.
  const transport = new WebStandardStreamableHTTPServerTransport({
    enableJsonResponse: true,
    maxRequestBodySize: maxBytes,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(raw, { parsedBody: body });
  } finally {
    // With JSON responses the answer is complete here; closing frees the transport for the next message.
    await server.close();
  }
}

/** A JSON-RPC `tools/call` request with no task and no _meta: the only kind the fast path takes. */
function isPlainToolCall(message: unknown): message is { id: string | number } {
  const request = message as { jsonrpc?: unknown; method?: unknown; id?: unknown; params?: unknown };
  const params = request?.params as { task?: unknown; _meta?: unknown } | undefined;
  return !(
    typeof request !== 'object' ||
    request === null ||
    Array.isArray(request) ||
    request.jsonrpc !== '2.0' ||
    request.method !== 'tools/call' ||
    !(
      typeof request.id === 'string' ||
      (typeof request.id === 'number' && Number.isSafeInteger(request.id))
    ) ||
    typeof params !== 'object' ||
    params === null ||
    params.task !== undefined ||
    params._meta !== undefined
  );
}

/** The client accepts the transport's JSON answer and sent JSON. */
function acceptsJson(raw: Request): boolean {
  const accept = raw.headers.get('accept') ?? '';
  const type = raw.headers.get('content-type') ?? '';
  return (
    accept.includes('application/json') &&
    accept.includes('text/event-stream') &&
    type.includes('application/json')
  );
}

/**
 * A plain `tools/call` request (no task, no _meta) from a client that accepts the transport's JSON answer: given
 * to the SDK's own tools/call handler (the same request parsing, input and output validation, and error mapping)
 * without a transport, and its answer serialised once. Through the transport the answer was a string, a Response
 * (a well-formed copy, then bytes) and read back as text per message: most of what a batch of searches allocated
 * (bench mcp-abuse). Anything else goes through the transport.
 */
async function callTool(raw: Request, message: unknown, server: McpServer): Promise<string | null> {
  if (!isPlainToolCall(message) || !acceptsJson(raw)) return null;
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, ToolsCallHandler> })
    ._requestHandlers;
  const handler = handlers?.get('tools/call');
  if (!handler) return null;
  const id = message.id;
  const abort = new AbortController();
  try {
    const result = await handler(message, {
      signal: abort.signal,
      requestId: id,
      sendNotification: async () => {},
      sendRequest: async () => {
        throw new Error('This server sends no requests to its clients.');
      },
    });
    return JSON.stringify({ result, jsonrpc: '2.0', id });
  } catch (error) {
    return JSON.stringify({ jsonrpc: '2.0', id, error: rpcError(error) });
  }
}

/** A thrown SDK error as JSON-RPC's error object. */
function rpcError(error: unknown) {
  const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
  return {
    code: Number.isSafeInteger(code) ? code : -32603,
    message: typeof message === 'string' ? message : 'Internal error',
    ...(data !== undefined && { data }),
  };
}
