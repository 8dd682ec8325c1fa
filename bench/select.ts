// Selection: taste on the real seed week (how many of the reference edition's 9 papers the top 12 holds,
// offline and with LLM triage through a loopback fake), wall time over 2,000 candidates, and the tokens
// triage spends as a fraction of the tokens writing spends on the same week.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseConfig } from '../src/config/index.js';
import { silentLogger } from '../src/core/ports.js';
import type { StoredItem } from '../src/core/types.js';
import { toWritingInput } from '../src/editions/edition-items.js';
import { selectionPolicy } from '../src/editions/selection.js';
import { planEdition } from '../src/select/plan-edition.js';
import { boundedExamples, fitTaste } from '../src/select/taste.js';
import { triageCandidates } from '../src/select/triage.js';
import { triageShortlist } from '../src/select/triage-shortlist.js';
import type { EditionPlan, SelectionPolicy } from '../src/select/types.js';
import { openStore } from '../src/store/open-store.js';
import { createLlmClient, createWriter } from '../src/write/index.js';
import { startFakeLlm } from '../test/support/fake-llm.js';
import { seedWeekPicks } from '../test/support/fixtures.js';
import { storedFrom } from '../test/support/stored-items.js';
import { seedWeekItems } from './_seed-week.js';
import { leaveOneDayOut, samplePostMix, voiceAndLevels } from './_taste.js';

const WEEK = '2026-05-04';
/** The reference edition's papers, as the seed week's README names them. */
const REFERENCE = seedWeekPicks();
const MODEL = 'openai:gpt-4.1-mini';
const AUDIENCE = 'engineers building production AI systems';

/** 2,000 distinct candidates from the real 118: each copy joins two real papers, so no copy is a duplicate. */
function synthesise(real: StoredItem[], count: number): StoredItem[] {
  return Array.from({ length: count }, (_, index) => {
    const base = real[index % real.length]!;
    const copy = Math.floor(index / real.length);
    if (copy === 0) return base;
    const other = real[(index + copy) % real.length]!;
    const url = `https://example.org/copies/${copy}/${base.key.replace(/\W+/g, '-')}/post`;
    return {
      ...base,
      key: `url:${url}`,
      canonicalUrl: url,
      url,
      arxivId: null,
      title: `${base.title}: ${other.title}`,
      text: `${base.text} ${other.text}`,
    };
  });
}

const hits = (plan: EditionPlan) =>
  plan.picks.filter((pick) => REFERENCE.includes(pick.item.arxivId ?? '')).length;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

export async function benchSelect(): Promise<Record<string, number | string>> {
  const real = (await seedWeekItems(WEEK)).map((item) => storedFrom(item));
  const store = await openStore({ dataDir: 'memory://' });
  const triageFake = await startTriageFake();
  const writeFake = await startFakeLlm();
  try {
    const config = parseConfig({});
    const policy: SelectionPolicy = await selectionPolicy({ config, store, date: WEEK });
    const offline = planEdition(real, policy, WEEK);
    // (a') learned taste: each day scored by a model fitted on the other days' picks (leave-one-day-out).
    const tasted = planEdition(real, { ...policy, taste: leaveOneDayOut(real, REFERENCE) }, WEEK);

    // (b) triage of the offline shortlist through the loopback fake, then the plan with its scores.
    const shortlist = triageShortlist({ candidates: real, policy, date: WEEK });
    const triageClient = createLlmClient({
      llm: { write: MODEL },
      store,
      log: silentLogger,
      env: { OPENAI_API_KEY: 'bench', OPENAI_BASE_URL: triageFake.baseURL },
    });
    const triage = await triageCandidates(shortlist, { llmClient: triageClient, audience: AUDIENCE });
    const triaged = planEdition(real, { ...policy, relevance: triage.scores }, WEEK);

    // (d) writing the same week's 12 picks with the LLM writer against the writer's fake (write + check + edition).
    const writer = createWriter({
      llm: config.llm,
      run: { modelOverride: MODEL },
      store,
      log: silentLogger,
      env: { OPENAI_API_KEY: 'bench', OPENAI_BASE_URL: writeFake.baseURL },
    });
    const inputs = triaged.picks.map(toWritingInput);
    const context = { name: config.name, audience: config.audience, log: silentLogger };
    const written = await writer.writer.writeItems(inputs, context);
    await writer.writer.writeEdition(
      inputs.map((input, index) => ({ ...input, ...written[index]! })),
      context,
    );
    const writing = writer.usage();
    const triageTokens = triage.usage.inputTokens + triage.usage.outputTokens;
    const writingTokens = writing.tokensIn + writing.tokensOut;

    // (c) selection wall time over 2,000 candidates: the first (cold) run and the median of 5 warm runs.
    const many = synthesise(real, 2_000);
    // CPU time is reported too: on a busy machine wall time measures the neighbours as much as the code.
    const times: number[] = [];
    const cpuTimes: number[] = [];
    let plan2000: EditionPlan | undefined;
    for (let run = 0; run < 6; run++) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      plan2000 = planEdition(many, policy, WEEK);
      times.push(performance.now() - started);
      const used = process.cpuUsage(cpu);
      cpuTimes.push((used.user + used.system) / 1000);
    }

    // (d) learned taste on half a year of busy weeks: 26 weeks of 2,000 candidates, 12 picks each.
    const history = synthesise(real, 26 * 2_000).map((item, index) => ({
      title: item.title,
      text: item.text,
      positive: index % 2_000 < 12,
    }));
    const fitStarted = performance.now();
    const kept = boundedExamples(history);
    fitTaste(kept);
    const fitSeconds = (performance.now() - fitStarted) / 1000;

    return {
      'seed week candidates': real.length,
      'reference picks in top 12, offline (of 9)': hits(offline),
      'reference picks in top 12, with learned taste, leave-one-day-out (of 9)': hits(tasted),
      'reference picks in top 12, fake-LLM triage (of 9)': hits(triaged),
      ...voiceAndLevels(real),
      ...samplePostMix(),
      'triage: candidates / calls': `${shortlist.length} / ${triage.usage.calls}`,
      'triage tokens': triageTokens,
      'writing tokens (12 items + check + edition)': writingTokens,
      'triage / writing tokens': Math.round((triageTokens / writingTokens) * 1000) / 1000,
      'select 2,000 candidates: first run s': Math.round(times[0]!) / 1000,
      'select 2,000 candidates s': Math.round(median(times.slice(1))) / 1000,
      'select 2,000 candidates CPU s': Math.round(median(cpuTimes.slice(1))) / 1000,
      'candidates after dedup (of 2,000)': plan2000?.ranked.length ?? 0,
      'learned taste fit, 26 weeks x 2,000 candidates: items kept / s': `${kept.length} / ${fitSeconds.toFixed(2)}`,
      'top 12 offline': offline.picks
        .map((pick) => `${pick.item.arxivId} ${pick.score.toFixed(3)}`)
        .join(', '),
    };
  } finally {
    await Promise.all([store.close(), triageFake.close(), writeFake.close()]);
  }
}

// ---------------------------------------------------------------------------------------------------------
// A loopback stand-in for a triage model (OpenAI responses API). It follows the rubric our prompt states
// ("production practice, agents, evaluation, safety/security, efficiency, tooling") by counting those words
// in each candidate's title (×3) and first lines: a deterministic lexical judge, not a real model's taste.
// Usage is counted as the writer's fake counts it (≈ 4 characters a token), so the token ratio compares like
// with like.

const RUBRIC =
  /\b(production|practic\w*|agent\w*|evaluat\w*|benchmark\w*|safety|secur\w*|efficien\w*|tool\w*)\b/gi;

function judge(candidate: { title?: string; snippet?: string }): number {
  const inTitle = (candidate.title ?? '').match(RUBRIC)?.length ?? 0;
  const inText = (candidate.snippet ?? '').match(RUBRIC)?.length ?? 0;
  return Math.min(10, 2 + 3 * inTitle + inText);
}

async function startTriageFake(): Promise<{ baseURL: string; close(): Promise<void> }> {
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      input?: { role: string; content: unknown }[];
    };
    const textOf = (content: unknown) =>
      typeof content === 'string'
        ? content
        : (content as { text?: string }[]).map((part) => part.text ?? '').join('');
    const messages = body.input ?? [];
    const system = messages.filter((message) => message.role === 'system' || message.role === 'developer');
    const user = messages
      .filter((message) => message.role === 'user')
      .map((message) => textOf(message.content));
    const text = [...system.map((message) => textOf(message.content)), ...user].join('');
    const lines = user
      .join('\n')
      .split('\n')
      .filter((line) => line.startsWith('{'));
    const scores = lines.map((line) => {
      const candidate = JSON.parse(line) as { id: string; title?: string; snippet?: string };
      return { id: candidate.id, score: judge(candidate) };
    });
    const answer = JSON.stringify({ scores });
    const tokens = (value: string) => Math.max(1, Math.ceil(value.length / 4));
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: 'resp_triage',
        object: 'response',
        created_at: 1_777_000_000,
        status: 'completed',
        model: 'fake',
        output: [
          {
            type: 'message',
            id: 'msg_triage',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: answer, annotations: [] }],
          },
        ],
        usage: {
          input_tokens: tokens(text),
          output_tokens: tokens(answer),
          total_tokens: tokens(text) + tokens(answer),
        },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
