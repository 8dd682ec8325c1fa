#!/usr/bin/env node
// A small loopback server around node-llama-cpp (llama.cpp's Node binding, CPU build from this folder's package) that speaks
// the part of llama.cpp's own server the digest uses: `POST /v1/chat/completions` (OpenAI chat completions, with
// `response_format: { type: "json_schema" }` turned into the engine's JSON-schema grammar), `GET /props` (with
// `total_slots`), `GET /v1/models` and `GET /health`. One slot: requests wait in line, as on a one-slot llama.cpp.
// Usage numbers and timings are the engine's own (its token meter), not estimates.
//
//   node test/support/engine/llama-server.mjs --model tiny.gguf [--port 0] [--ctx N] [--threads 1] [--api-key KEY] [--log f]
//   node test/support/engine/llama-server.mjs --probe      exits 0 when the engine's binary loads on this machine
//
// Prints `listening http://127.0.0.1:PORT` on stdout once the model is loaded. `--log` appends one JSON line per
// answered request (what the tests inspect: the grammar's schema, the answer, usage, time in line).
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    model: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '0' },
    // Default: the context length the model was trained for.
    ctx: { type: 'string' },
    // One thread: on a busy machine, llama.cpp's spinning thread pool is far slower than a single thread.
    threads: { type: 'string', default: '1' },
    'api-key': { type: 'string' },
    log: { type: 'string' },
    probe: { type: 'boolean', default: false },
  },
});

async function loadEngine() {
  const { getLlama } = await import('node-llama-cpp');
  // `build: 'never'`: use the prebuilt binary from the npm package or fail; never compile or download.
  return getLlama({ gpu: false, build: 'never', progressLogs: false, logLevel: 'error' });
}

if (args.probe) {
  try {
    await loadEngine();
    process.exit(0);
  } catch (error) {
    process.stderr.write(`node-llama-cpp cannot load: ${error instanceof Error ? error.message : error}\n`);
    process.exit(1);
  }
}
if (!args.model) {
  process.stderr.write('usage: node test/support/engine/llama-server.mjs --model <file.gguf> [--port 0]\n');
  process.exit(2);
}

const { LlamaCompletion } = await import('node-llama-cpp');
const llama = await loadEngine();
const model = await llama.loadModel({ modelPath: args.model });
const contextSize = args.ctx ? Number(args.ctx) : model.trainContextSize;
const context = await model.createContext({ contextSize, sequences: 1, threads: Number(args.threads) });
const sequence = context.getSequence();
const completion = new LlamaCompletion({ contextSequence: sequence });
const modelName = basename(args.model).replace(/\.gguf$/, '');

class HttpError extends Error {
  constructor(status, type, message) {
    super(message);
    this.status = status;
    this.type = type;
  }
}

function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
  return '';
}

/** A plain chat layout: the tiny test model has no chat template of its own. */
function promptOf(messages) {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new HttpError(400, 'invalid_request_error', "'messages' must be a non-empty array");
  }
  const turns = messages.map((message) => `<|${message.role ?? 'user'}|>\n${textOf(message.content)}\n`);
  return `${turns.join('')}<|assistant|>\n`;
}

async function grammarOf(format) {
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return llama.getGrammarFor('json');
  if (format.type === 'json_schema') {
    const schema = format.json_schema?.schema ?? format.schema;
    if (!schema) throw new HttpError(400, 'invalid_request_error', "'json_schema.schema' is missing");
    try {
      return await llama.createGrammarForJsonSchema(schema);
    } catch (error) {
      throw new HttpError(400, 'invalid_request_error', `unsupported JSON schema: ${error.message}`);
    }
  }
  throw new HttpError(400, 'invalid_request_error', `unsupported response_format type '${format.type}'`);
}

async function answer(body, signal) {
  if (body.stream) throw new HttpError(400, 'invalid_request_error', 'streaming is not supported here');
  const prompt = promptOf(body.messages);
  const grammar = await grammarOf(body.response_format);
  const maxTokens = body.max_completion_tokens ?? body.max_tokens ?? 512;
  const promptTokens = model.tokenize(prompt).length;
  if (promptTokens + maxTokens > contextSize) {
    throw new HttpError(
      400,
      'exceed_context_size_error',
      `the request exceeds the available context size (${promptTokens} prompt + ${maxTokens} answer tokens > ${contextSize})`,
    );
  }
  await sequence.clearHistory();
  const before = { input: sequence.tokenMeter.usedInputTokens, output: sequence.tokenMeter.usedOutputTokens };
  const started = performance.now();
  // The first token marks the end of reading the prompt: llama.cpp reports the two phases apart.
  let firstToken;
  const { response, metadata } = await completion.generateCompletionWithMeta(prompt, {
    grammar,
    maxTokens,
    temperature: body.temperature ?? 0.8,
    seed: body.seed ?? 1,
    signal,
    onToken: () => {
      firstToken ??= performance.now();
    },
  });
  const ended = performance.now();
  const ms = ended - started;
  const promptMs = (firstToken ?? ended) - started;
  const usage = {
    prompt_tokens: sequence.tokenMeter.usedInputTokens - before.input,
    completion_tokens: sequence.tokenMeter.usedOutputTokens - before.output,
  };
  const finish = metadata.stopReason === 'maxTokens' ? 'length' : 'stop';
  return { text: response, finish, usage, ms, promptMs };
}

function completionBody(body, result) {
  const { prompt_tokens, completion_tokens } = result.usage;
  return {
    id: `chatcmpl-${Date.now().toString(36)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body.model ?? modelName,
    choices: [
      { index: 0, message: { role: 'assistant', content: result.text }, finish_reason: result.finish },
    ],
    usage: { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens },
    // As llama.cpp's server reports them: reading the prompt, then writing the answer.
    timings: {
      prompt_n: prompt_tokens,
      prompt_ms: result.promptMs,
      prompt_per_second: prompt_tokens / Math.max(result.promptMs / 1000, 1e-6),
      predicted_n: completion_tokens,
      predicted_ms: result.ms - result.promptMs,
      predicted_per_second: completion_tokens / Math.max((result.ms - result.promptMs) / 1000, 1e-6),
    },
  };
}

// One slot: each request waits for the one before it; `inFlight` counts requests in line or running.
let line = Promise.resolve();
let inFlight = 0;
function inLine(task) {
  const turn = line.then(task, task);
  line = turn.catch(() => {});
  return turn;
}

function send(response, status, payload) {
  if (response.destroyed) return;
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
}

async function chat(response, raw) {
  const arrived = performance.now();
  const aborter = new AbortController();
  response.on('close', () => aborter.abort());
  inFlight += 1;
  const waiting = inFlight;
  try {
    const body = JSON.parse(raw);
    const result = await inLine(async () => {
      aborter.signal.throwIfAborted();
      const queuedMs = performance.now() - arrived;
      return { ...(await answer(body, aborter.signal)), queuedMs };
    });
    send(response, 200, completionBody(body, result));
    if (args.log) {
      const entry = {
        schema: body.response_format?.json_schema?.schema ?? null,
        maxTokens: body.max_completion_tokens ?? body.max_tokens ?? null,
        text: result.text,
        usage: result.usage,
        finish: result.finish,
        queuedMs: Math.round(result.queuedMs),
        ms: Math.round(result.ms),
        inFlightOnArrival: waiting,
      };
      appendFileSync(args.log, `${JSON.stringify(entry)}\n`);
    }
  } catch (error) {
    const status = error instanceof HttpError ? error.status : error instanceof SyntaxError ? 400 : 500;
    const type = error instanceof HttpError ? error.type : 'server_error';
    send(response, status, { error: { code: status, type, message: String(error.message ?? error) } });
  } finally {
    inFlight -= 1;
  }
}

function authorised(request) {
  return !args['api-key'] || request.headers.authorization === `Bearer ${args['api-key']}`;
}

const server = createServer(async (request, response) => {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  if (path === '/health') return send(response, 200, { status: 'ok' });
  if (!authorised(request)) {
    return send(response, 401, {
      error: { code: 401, type: 'authentication_error', message: 'Invalid API Key' },
    });
  }
  if (path === '/props' && request.method === 'GET') {
    return send(response, 200, {
      total_slots: 1,
      model_path: args.model,
      default_generation_settings: { n_ctx: contextSize },
    });
  }
  if (path === '/v1/models' && request.method === 'GET') {
    return send(response, 200, {
      object: 'list',
      data: [{ id: modelName, object: 'model', owned_by: 'local' }],
    });
  }
  if (path === '/v1/chat/completions' && request.method === 'POST') {
    return chat(response, Buffer.concat(chunks).toString('utf8'));
  }
  send(response, 404, { error: { code: 404, type: 'not_found_error', message: `no route ${path}` } });
});

server.listen(Number(args.port), args.host, () => {
  const { port } = server.address();
  process.stdout.write(`listening http://${args.host}:${port}\n`);
});

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
