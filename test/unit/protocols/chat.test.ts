// The chat-completions protocol: the upstream's wire shapes, the pairing of sent and received
// chunks the stream checks rely on, the generated bodies, and the chat faults.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chatCompletion, chatError, chatFrames, chatStream, DONE } from '../../../src/protocols/chat/index.js';
import { chunkName, pairEvents } from '../../../suites/chat/common.js';
import { samePayload } from '../../../suites/shared/pairing.js';
import { generatedChatBody as chatBody } from '../../../suites/chat/gen.js';
import { CASE_PLACEHOLDER } from '../../../src/upstream/contract.js';
import { faultByName } from '../../../reference/faults/index.js';
import { parts, throughStream as throughFault } from '../../helpers/stream-fault.js';

const throughStream = (fault: string, text: string, size: number) => throughFault(fault, '/v1/chat/completions', text, size, 'text/event-stream; charset=utf-8');



describe('chat wire shapes (as the real API sends them)', () => {
  it('a stream is a role chunk, content chunks, a finish chunk, a usage chunk with empty choices, then [DONE]', () => {
    const s = chatStream({ pieces: ['a', 'b'] });
    expect(s.map(chunkName)).toEqual(['role', 'content "a"', 'content "b"', 'finish stop', 'usage (choices: [])', '[DONE]']);
    const usage = JSON.parse(s[4]);
    expect(usage.choices).toEqual([]);
    expect(usage.usage.total_tokens).toBe(21);
    expect(JSON.parse(s[0]).usage).toBeNull();
    expect(chatStream({ includeUsage: false }).map(chunkName)).not.toContain('usage (choices: [])');
    for (const f of chatFrames(s)) expect(f.data).toMatch(/^data: [^\n]+\n\n$/);
  });

  it('a bad key is 401 invalid_api_key; the completion carries message.content', () => {
    expect(JSON.parse(chatError(401)).error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_api_key', param: null });
    expect(JSON.parse(chatCompletion({ content: 'x' })).choices[0].message.content).toBe('x');
    expect(JSON.parse(chatCompletion({ content: null })).choices[0].message.content).toBeNull();
  });
});

describe('pairing of sent and received chunks', () => {
  const sent = chatStream({ pieces: ['a', 'b'] });

  it('pairs by position when the counts agree', () => {
    expect(pairEvents(sent, sent)).toEqual(sent.map((_, i) => ({ sent: i, got: i })));
  });

  it('pairs by content when a chunk was dropped, so later chunks are not shifted', () => {
    const got = sent.filter((_, i) => i !== 4);
    const pairs = pairEvents(sent, got);
    expect(pairs.map((p) => p.sent)).toEqual([0, 1, 2, 3, 5]);
    expect(pairs.map((p) => p.got)).toEqual([0, 1, 2, 3, 4]);
  });

  it('a re-serialised chunk (other spacing, other key order) is the same payload; a changed one is not', () => {
    const v = JSON.parse(sent[1]);
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(v).reverse()), null, 1);
    expect(samePayload(sent[1], reordered)).toBe(true);
    expect(samePayload(sent[1], sent[2])).toBe(false);
    expect(samePayload(DONE, DONE)).toBe(true);
    expect(samePayload(DONE, '[done]')).toBe(false);
  });
});

describe('generated chat bodies', () => {
  it('are JSON with messages (no contents) and carry the case placeholder', () => {
    fc.assert(
      fc.property(chatBody, (text) => {
        const v = JSON.parse(text);
        expect(Array.isArray(v.messages)).toBe(true);
        expect(v).not.toHaveProperty('contents');
        expect(text).toContain(CASE_PLACEHOLDER);
        // stream_options only beside stream: true, as clients send it.
        if (v.stream_options !== undefined) expect(v.stream).toBe(true);
      }),
      { numRuns: 200, seed: 7 },
    );
  });
});

describe('chat faults of the reference gateway', () => {
  const text = chatFrames(chatStream({ pieces: ['Hé😀', 'llo'] }))
    .map((f) => f.data)
    .join('');

  it('drop-usage-chunk drops only the chunk with empty choices, whatever the chunk boundaries', async () => {
    for (const size of [1, 5, 64, 4096]) {
      const out = await throughStream('drop-usage-chunk', text, size);
      const names = out.split('\n\n').filter(Boolean).map((f) => chunkName(f.slice(6)));
      expect(names, `pieces of ${size} bytes`).toEqual(['role', 'content "Hé😀"', 'content "llo"', 'finish stop', '[DONE]']);
    }
  });

  it('drop-done drops only the [DONE] terminator', async () => {
    const out = await throughStream('drop-done', text, 9);
    expect(out).toBe(text.replace('data: [DONE]\n\n', ''));
  });

  it('chat-401-as-500 rewrites only a 401 of a non-streamed chat request', () => {
    const f = faultByName('chat-401-as-500')!;
    expect(f.responseWhen!(parts('/v1/chat/completions', '{"stream":true}'))).toBe(false);
    expect(f.responseWhen!(parts('/v1/chat/completions', '{"stream":false}'))).toBe(true);
    expect(f.responseWhen!(parts('/v1/messages'))).toBe(false);
    expect(f.response!(401, {}, Buffer.from(chatError(401)), parts('/v1/chat/completions'))?.status).toBe(500);
    expect(f.response!(429, {}, Buffer.from(chatError(429)), parts('/v1/chat/completions'))).toBeNull();
  });

  it('chat-drop-unknown-fields keeps known fields only, at the top level and in messages', () => {
    const p = parts('/v1/chat/completions', '{"model":"m","x_future":1,"messages":[{"role":"user","content":"hi","x_hint":2}],"response_format":{"type":"json_object"}}');
    faultByName('chat-drop-unknown-fields')!.request!(p);
    expect(JSON.parse(p.body.toString())).toEqual({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
  });
});
