// The request shapes the property-based body checks generate, per protocol: every shape a real
// client sends must come out of the generators (streaming and not, with and without each
// optional field), or a gateway that mishandles only that shape passes unseen.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyText, generatedMessagesBody } from '../suites/messages/gen.js';
import { generatedChatRequest } from '../suites/chat/gen.js';
import { generatedNativeRequest } from '../suites/native/gen.js';

type Body = Record<string, unknown>;
const N = 600;
const messages = fc.sample(generatedMessagesBody, { seed: 3, numRuns: N }).map((b) => JSON.parse(bodyText(b)) as Body);
const chat = fc.sample(generatedChatRequest, { seed: 3, numRuns: N }).map((r) => ({ v: JSON.parse(r.body) as Body, send: r.send }));
const native = fc.sample(generatedNativeRequest, { seed: 3, numRuns: N }).map((r) => ({ v: JSON.parse(r.body) as Body, path: r.send.endpoint?.path ?? '' }));

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
