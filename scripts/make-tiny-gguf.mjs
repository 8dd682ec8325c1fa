#!/usr/bin/env node
// Writes a tiny llama-architecture GGUF model (about 0.8 MB, F32, deterministic) for the real-engine tests: no model hub
// is reachable, so the test model is made here. Its weights are seeded noise shaped into a unigram language model:
// every token embedding carries one constant dimension that the attention and feed-forward blocks barely touch, and
// the output layer reads that dimension with a per-token bias. So the engine's answers are cheap and predictable
// (JSON punctuation first, then letters) while still passing through the whole engine: tokenizer, two transformer
// blocks, sampler and the JSON-schema grammar, which is what makes the answers valid JSON.
//
//   node scripts/make-tiny-gguf.mjs <out.gguf>
//
// Format: GGUF v3 (ggml's docs/gguf.md): header, metadata key/values, tensor infos, then tensor data aligned to 32.
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const ALIGNMENT = 32;
const DIMS = { embd: 64, ff: 128, layers: 2, heads: 4, context: 32_768 };

/** Value types of GGUF metadata (gguf.md "gguf_metadata_value_type"). */
const T = { UINT32: 4, INT32: 5, FLOAT32: 6, BOOL: 7, STRING: 8, ARRAY: 9 };
const GGML_TYPE_F32 = 0;
/** llama.cpp token types. */
const TOKEN = { NORMAL: 1, UNKNOWN: 2, CONTROL: 3, BYTE: 6 };

/** mulberry32: a small seeded generator, so the same file comes out on every machine. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Special tokens, the SentencePiece word marker, the 256 byte tokens the tokenizer falls back to, then every pair
 * of lowercase letters and the word marker: the tokenizer merges those, so a prompt takes about half as many tokens
 * as bytes (the engine's time grows with the square of a prompt's length).
 */
function vocabulary() {
  const tokens = ['<unk>', '<s>', '</s>', '\u2581'];
  const types = [TOKEN.UNKNOWN, TOKEN.CONTROL, TOKEN.CONTROL, TOKEN.NORMAL];
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(TOKEN.BYTE);
  }
  const letters = ['\u2581', ...'abcdefghijklmnopqrstuvwxyz'];
  for (const first of letters) {
    for (const second of letters) {
      tokens.push(first + second);
      types.push(TOKEN.NORMAL);
    }
  }
  return { tokens, types, scores: tokens.map((token) => (token.length === 2 ? -1 : 0)) };
}

/** How much the model likes each token: closing a string or a structure first, then letters and digits. */
function preference(token) {
  if (token === '\u2581') return 0.5;
  if (token.length === 2) return -1;
  const byte = /^<0x([0-9A-F]{2})>$/.exec(token);
  if (!byte) return -1;
  const char = String.fromCharCode(Number.parseInt(byte[1], 16));
  if (char === '"') return 1.6;
  if (',]}'.includes(char)) return 1.4;
  if (/[a-z]/.test(char)) return 0.9 + (char.charCodeAt(0) % 7) / 40;
  if (/[0-9]/.test(char)) return 0.8;
  if (/[A-Z.]/.test(char)) return 0.7;
  return 0;
}

function tensors(vocab, next) {
  const { embd, ff, layers } = DIMS;
  const noise = (count, scale) => Float32Array.from({ length: count }, () => (next() * 2 - 1) * scale);
  const ones = (count) => new Float32Array(count).fill(1);
  const list = [];
  const add = (name, dims, data) => list.push({ name, dims, data });
  const n = vocab.tokens.length;
  const embedding = noise(embd * n, 0.1);
  const output = noise(embd * n, 0.05);
  for (let token = 0; token < n; token++) {
    embedding[token * embd] = 1;
    output[token * embd] = preference(vocab.tokens[token]);
  }
  add('token_embd.weight', [embd, n], embedding);
  for (let layer = 0; layer < layers; layer++) {
    const blk = `blk.${layer}`;
    add(`${blk}.attn_norm.weight`, [embd], ones(embd));
    for (const part of ['attn_q', 'attn_k', 'attn_v', 'attn_output']) {
      add(`${blk}.${part}.weight`, [embd, embd], noise(embd * embd, 0.02));
    }
    add(`${blk}.ffn_norm.weight`, [embd], ones(embd));
    add(`${blk}.ffn_gate.weight`, [embd, ff], noise(embd * ff, 0.02));
    add(`${blk}.ffn_up.weight`, [embd, ff], noise(embd * ff, 0.02));
    add(`${blk}.ffn_down.weight`, [ff, embd], noise(ff * embd, 0.02));
  }
  add('output_norm.weight', [embd], ones(embd));
  add('output.weight', [embd, n], output);
  return list;
}

function metadata(vocab) {
  const { embd, ff, layers, heads, context } = DIMS;
  return [
    ['general.architecture', T.STRING, 'llama'],
    ['general.name', T.STRING, 'digest-tiny-test'],
    ['general.alignment', T.UINT32, ALIGNMENT],
    ['llama.context_length', T.UINT32, context],
    ['llama.embedding_length', T.UINT32, embd],
    ['llama.block_count', T.UINT32, layers],
    ['llama.feed_forward_length', T.UINT32, ff],
    ['llama.attention.head_count', T.UINT32, heads],
    ['llama.attention.head_count_kv', T.UINT32, heads],
    ['llama.rope.dimension_count', T.UINT32, embd / heads],
    ['llama.attention.layer_norm_rms_epsilon', T.FLOAT32, 1e-5],
    ['llama.vocab_size', T.UINT32, vocab.tokens.length],
    ['tokenizer.ggml.model', T.STRING, 'llama'],
    ['tokenizer.ggml.tokens', T.ARRAY, [T.STRING, vocab.tokens]],
    ['tokenizer.ggml.scores', T.ARRAY, [T.FLOAT32, vocab.scores]],
    ['tokenizer.ggml.token_type', T.ARRAY, [T.INT32, vocab.types]],
    ['tokenizer.ggml.unknown_token_id', T.UINT32, 0],
    ['tokenizer.ggml.bos_token_id', T.UINT32, 1],
    ['tokenizer.ggml.eos_token_id', T.UINT32, 2],
    ['tokenizer.ggml.add_bos_token', T.BOOL, true],
    ['tokenizer.ggml.add_eos_token', T.BOOL, false],
  ];
}

/** A growing little-endian byte buffer. */
class Writer {
  chunks = [];
  length = 0;
  push(buffer) {
    this.chunks.push(buffer);
    this.length += buffer.length;
  }
  u32(value) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(value);
    this.push(b);
  }
  i32(value) {
    const b = Buffer.alloc(4);
    b.writeInt32LE(value);
    this.push(b);
  }
  u64(value) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(value));
    this.push(b);
  }
  f32(value) {
    const b = Buffer.alloc(4);
    b.writeFloatLE(value);
    this.push(b);
  }
  string(value) {
    const bytes = Buffer.from(value, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
  pad() {
    const rest = this.length % ALIGNMENT;
    if (rest) this.push(Buffer.alloc(ALIGNMENT - rest));
  }
  value(type, value) {
    if (type === T.UINT32) this.u32(value);
    else if (type === T.INT32) this.i32(value);
    else if (type === T.FLOAT32) this.f32(value);
    else if (type === T.BOOL) this.push(Buffer.from([value ? 1 : 0]));
    else if (type === T.STRING) this.string(value);
    else if (type === T.ARRAY) {
      const [itemType, items] = value;
      this.u32(itemType);
      this.u64(items.length);
      for (const item of items) this.value(itemType, item);
    } else throw new Error(`unsupported GGUF value type ${type}`);
  }
}

/** The GGUF file as bytes; the same seed gives the same bytes. */
export function tinyGguf(seed = 20_261_126) {
  const vocab = vocabulary();
  const list = tensors(vocab, random(seed));
  const meta = metadata(vocab);
  const out = new Writer();
  out.push(Buffer.from('GGUF', 'ascii'));
  out.u32(3);
  out.u64(list.length);
  out.u64(meta.length);
  for (const [key, type, value] of meta) {
    out.string(key);
    out.u32(type);
    out.value(type, value);
  }
  let offset = 0;
  for (const tensor of list) {
    out.string(tensor.name);
    out.u32(tensor.dims.length);
    for (const dim of tensor.dims) out.u64(dim);
    out.u32(GGML_TYPE_F32);
    out.u64(offset);
    offset += Math.ceil(tensor.data.byteLength / ALIGNMENT) * ALIGNMENT;
  }
  out.pad();
  for (const tensor of list) {
    out.push(Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
    out.pad();
  }
  return Buffer.concat(out.chunks);
}

export function writeTinyGguf(path, seed) {
  const bytes = tinyGguf(seed);
  writeFileSync(path, bytes);
  return bytes.length;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const path = process.argv[2];
  if (!path) {
    process.stderr.write('usage: node scripts/make-tiny-gguf.mjs <out.gguf>\n');
    process.exit(2);
  }
  const size = writeTinyGguf(path);
  process.stdout.write(`${path}: ${(size / 1024).toFixed(0)} KiB\n`);
}
