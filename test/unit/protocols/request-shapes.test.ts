// The request shapes the property-based body checks generate, per protocol: every shape a real
// client sends must come out of the generators (streaming and not, with and without each
// optional field), or a gateway that mishandles only that shape passes unseen.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyText, generatedMessagesBody, generatedMessagesRequest } from '../../../suites/messages/gen.js';
import { ANTHROPIC_VERSIONS, GEMINI_CLI_HEADERS, GOOG_API_CLIENT } from '../../../suites/shared/client-headers.js';
import { RecordingUpstream } from '../../../mocks/upstream/server.js';
import { SessionCapture } from '../../../mocks/upstream/session.js';
import { ReferenceGateway } from '../../../reference/gateway.js';
import { generatedChatRequest } from '../../../suites/chat/gen.js';
import { generatedNativeRequest } from '../../../suites/native/gen.js';

type Body = Record<string, unknown>;
const N = 600;
const messages = fc.sample(generatedMessagesBody, { seed: 3, numRuns: N }).map((b) => JSON.parse(bodyText(b)) as Body);
const chat = fc.sample(generatedChatRequest, { seed: 3, numRuns: N }).map((r) => ({ v: JSON.parse(r.body) as Body, send: r.send }));
const native = fc.sample(generatedNativeRequest, { seed: 3, numRuns: N }).map((r) => ({ v: JSON.parse(r.body) as Body, path: r.send.endpoint?.path ?? '', headers: r.send.headers ?? [], body: r.body }));
const requests = fc.sample(generatedMessagesRequest, { seed: 3, numRuns: N }).map((r) => ({ ...r, v: JSON.parse(r.body) as Body }));

/** How a body asks for a stream: `absent`, `false`, or `true` with its stream_options. */
const streamShape = (b: Body) => (b.stream === undefined ? 'absent' : b.stream === false ? 'false' : `true ${JSON.stringify(b.stream_options ?? null)}`);

describe('chat request shapes', () => {
  it('streaming and not: stream absent, false, true without stream_options, with include_usage true and false', () => {
    expect(new Set(chat.map((c) => streamShape(c.v)))).toEqual(new Set(['absent', 'false', 'true null', 'true {"include_usage":true}', 'true {"include_usage":false}']));
  });
  it('each optional field, present and absent', () => {
    for (const k of ['tools', 'tool_choice', 'response_format', 'top_p', 'n', 'frequency_penalty', 'presence_penalty', 'logprobs', 'top_logprobs', 'parallel_tool_calls', 'reasoning_effort', 'user', 'store', 'metadata', 'logit_bias', 'seed', 'stop', 'temperature']) {
      expect(chat.some((c) => k in c.v), `${k} present`).toBe(true);
      expect(chat.some((c) => !(k in c.v)), `${k} absent`).toBe(true);
    }
    expect(chat.some((c) => typeof c.v.tool_choice === 'object')).toBe(true);
    expect(new Set(chat.map((c) => (c.v.response_format as { type?: string } | undefined)?.type))).toEqual(new Set([undefined, 'text', 'json_object', 'json_schema']));
  });
});

describe('messages request shapes', () => {
  it('stream absent, false and true', () => {
    expect(new Set(messages.map((b) => String(b.stream)))).toEqual(new Set(['undefined', 'false', 'true']));
  });
  it('each optional field, present and absent, tool_choice in every form', () => {
    for (const k of ['system', 'tools', 'tool_choice', 'stop_sequences', 'metadata', 'temperature', 'top_p', 'top_k', 'service_tier', 'thinking', 'output_config']) {
      expect(messages.some((b) => k in b), `${k} present`).toBe(true);
      expect(messages.some((b) => !(k in b)), `${k} absent`).toBe(true);
    }
    expect(new Set(messages.map((b) => (b.tool_choice as { type?: string } | undefined)?.type))).toEqual(new Set([undefined, 'auto', 'any', 'tool', 'none']));
  });
});

describe('native request shapes', () => {
  it('sent to generateContent and to streamGenerateContent?alt=sse', () => {
    expect(new Set(native.map((n) => n.path.replace(/^.*:/, '')))).toEqual(new Set(['generateContent', 'streamGenerateContent?alt=sse']));
  });
  it('each optional field, present and absent; search and code execution tools', () => {
    for (const k of ['systemInstruction', 'generationConfig', 'safetySettings', 'tools', 'toolConfig', 'cachedContent', 'labels']) {
      expect(native.some((n) => k in n.v), `${k} present`).toBe(true);
      expect(native.some((n) => !(k in n.v)), `${k} absent`).toBe(true);
    }
    const tools = native.flatMap((n) => (n.v.tools as Body[] | undefined) ?? []).flatMap((t) => Object.keys(t));
    expect(new Set(tools)).toEqual(new Set(['functionDeclarations', 'googleSearch', 'codeExecution', 'urlContext']));
    const config = native.flatMap((n) => Object.keys((n.v.generationConfig as Body | undefined) ?? {}));
    for (const k of ['presencePenalty', 'frequencyPenalty', 'seed', 'candidateCount', 'responseModalities', 'thinkingConfig', 'responseSchema']) expect(config, k).toContain(k);
  });
});

// What the pinned real clients send (docs/client-profile.md, seen at the recording upstream).
const STAINLESS = ['X-Stainless-Retry-Count', 'X-Stainless-Timeout', 'X-Stainless-Lang', 'X-Stainless-Package-Version', 'X-Stainless-OS', 'X-Stainless-Arch', 'X-Stainless-Runtime', 'X-Stainless-Runtime-Version'];
type Req = (typeof requests)[number];
const blocks = (b: Body) => (b.messages as Array<{ content: unknown }>).flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<{ type?: string }>).map((x) => x.type) : []));
const toolRoundTrip = (r: Req) => typeof r.v.system === 'string' && blocks(r.v).includes('tool_use') && blocks(r.v).includes('tool_result');
const stainless = (r: Req) => (r.send.headers ?? []).filter(([k]) => k.startsWith('X-Stainless-'));

describe('what real clients send, as generated shapes', () => {
  it('messages: a plain-string system with a tool_use / tool_result turn in the history, streamed and not', () => {
    const trips = requests.filter(toolRoundTrip);
    expect(trips.length).toBeGreaterThan(10);
    const streams = new Set(trips.map((r) => String(r.v.stream)));
    expect(streams).toContain('undefined');
    expect(streams).toContain('true');
  });
  it('anthropic-version 2023-06-01 and 2026-10-21', () => {
    expect(ANTHROPIC_VERSIONS).toEqual(['2023-06-01', '2026-10-21']);
    expect(new Set(requests.map((r) => r.send.version))).toEqual(new Set(ANTHROPIC_VERSIONS));
  });
  it('the title-case X-Stainless-* headers of the Anthropic clients, present and absent, both builds', () => {
    const sets = requests.map(stainless).filter((h) => h.length);
    expect(sets.length).toBeGreaterThan(10);
    expect(requests.some((r) => stainless(r).length === 0)).toBe(true);
    for (const h of sets) expect(h.map(([k]) => k)).toEqual(STAINLESS);
    expect(new Set(sets.map((h) => h.find(([k]) => k === 'X-Stainless-Package-Version')![1]))).toEqual(new Set(['1.13.0', '0.128.0']));
    expect(new Set(sets.map((h) => h.find(([k]) => k === 'X-Stainless-Retry-Count')![1]))).toEqual(new Set(['0', '1']));
  });
  it('native: x-goog-api-client as @google/genai 1.52.0 sends it, Gemini CLI 0.61.0\'s headers, and none, on both endpoints', () => {
    const goog = (n: (typeof native)[number]) => n.headers.find(([k]) => k === 'x-goog-api-client')?.[1];
    expect(GOOG_API_CLIENT).toBe('google-genai-sdk/1.52.0 gl-node/v20.20.2');
    expect(new Set(native.map(goog))).toEqual(new Set([undefined, GOOG_API_CLIENT, 'google-genai-sdk/1.30.0 gl-node/v20.20.2']));
    const cli = native.filter((n) => goog(n) === 'google-genai-sdk/1.30.0 gl-node/v20.20.2');
    for (const n of cli) expect(n.headers.filter(([k]) => GEMINI_CLI_HEADERS.some(([h]) => h === k))).toEqual(GEMINI_CLI_HEADERS);
    expect(new Set(native.filter(goog).map((n) => n.path.replace(/^.*:/, '')))).toEqual(new Set(['generateContent', 'streamGenerateContent?alt=sse']));
  });
});

describe('the real clients\' shapes go through the clean reference gateway as sent', () => {
  const upstream = new RecordingUpstream();
  const capture = new SessionCapture({ credential: 'gwc-test-key' });
  let gateway: ReferenceGateway;
  let base = '';
  beforeAll(async () => {
    await upstream.start('127.0.0.1', 0);
    upstream.capture = capture;
    gateway = new ReferenceGateway({ upstream: upstream.url, upstreamTimeoutMs: 10_000 });
    base = await gateway.start('127.0.0.1', 0);
  });
  afterAll(async () => {
    await gateway.stop();
    await upstream.stop();
  });

  it('the body byte for byte, anthropic-version, every X-Stainless-* and x-goog-api-client header with its value', async () => {
    const trip = requests.find((r) => toolRoundTrip(r) && stainless(r).length && r.send.version === '2026-10-21')!;
    const old = requests.find((r) => stainless(r).length && r.send.version === '2023-06-01')!;
    const goog = native.find((n) => n.headers.length && !n.path.includes('stream'))!;
    const sent = [
      { path: '/v1/messages', body: trip.body, headers: [['anthropic-version', trip.send.version!], ...stainless(trip)] as Array<[string, string]> },
      { path: '/v1/messages', body: old.body, headers: [['anthropic-version', old.send.version!], ...stainless(old)] as Array<[string, string]> },
      { path: goog.path, body: goog.body, headers: goog.headers },
    ];
    for (const r of sent) {
      const res = await fetch(`${base}${r.path}`, { method: 'POST', body: r.body, headers: [['content-type', 'application/json'], ['x-api-key', 'gwc-test-key'], ...r.headers] });
      await res.arrayBuffer();
    }
    const got = await capture.settled();
    expect(got.map((q) => q.url)).toEqual(sent.map((r) => r.path));
    got.forEach((q, i) => {
      expect(Buffer.from(q.body, 'base64').toString('utf8')).toBe(sent[i].body);
      const seen = q.headers.map(([k, v]) => [k.toLowerCase(), v]);
      for (const [k, v] of sent[i].headers) expect(seen, k).toContainEqual([k.toLowerCase(), v]);
    });
  });
});
