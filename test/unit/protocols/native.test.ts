// The native (Gemini) protocol: the upstream's wire shapes, the judgement helpers of the
// native checks, the generated bodies, and the reference gateway's native faults.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockedResponse, googleCompact, nativeAnswer, nativeBadKey, nativeError, nativeFrames, nativeResponse, nativeStream, promptBlockedResponse } from '../../../src/protocols/native/index.js';
import { credentialsAt, pathFamily } from '../../../suites/shared/protocols.js';
import { generatedNativeBody as nativeBody } from '../../../suites/native/gen.js';
import { CASE_PLACEHOLDER } from '../../../src/upstream/contract.js';
import { faultByName } from '../../../reference/faults/index.js';
import { throughStream } from '../../helpers/stream-fault.js';
import type { RequestParts } from '../../../reference/faults/types.js';
import { GatewayClient } from '../../../src/client/gateway.js';
import { maskUrl, scrubSecrets } from '../../../src/core/mask.js';
import type { CheckContext } from '../../../src/check/check.js';
import type { RecordedRequest } from '../../../src/upstream/record.js';

const parts = (path: string, body = '{}', headers: Array<[string, string]> = []): RequestParts => ({ method: 'POST', path, headers, body: Buffer.from(body) });

/** Pushes `text` through a fault's stream transform in pieces of `size` bytes; returns what came out. */

describe('native wire shapes (as the real API sends them)', () => {
  it('stream frames are data-only, compact JSON with ": " after keys, each ending \\r\\n\\r\\n, no [DONE]', () => {
    const frames = nativeFrames(nativeStream({ pieces: ['a', 'b'] }));
    expect(frames).toHaveLength(2);
    for (const f of frames) {
      expect(f.data).toMatch(/^data: \{"candidates": \[/);
      expect(f.data.endsWith('}\r\n\r\n')).toBe(true);
      expect(f.data).not.toMatch(/event:|\[DONE\]/);
    }
    expect(JSON.parse(frames[1].data.slice(6)).candidates[0].finishReason).toBe('STOP');
    expect(googleCompact({ a: [1, { b: 'x' }] })).toBe('{"a": [1,{"b": "x"}]}');
  });

  it('a blocked stream ends with a candidate that has a finish reason and no content', () => {
    const last = JSON.parse(nativeStream({ pieces: ['Once'], blockedWith: 'SAFETY' }).at(-1)!);
    expect(last.candidates[0]).not.toHaveProperty('content');
    expect(last.candidates[0].finishReason).toBe('SAFETY');
  });

  it('a bad key is 400 INVALID_ARGUMENT with API_KEY_INVALID; other statuses carry their rpc status', () => {
    const bad = JSON.parse(nativeBadKey()).error;
    expect(bad).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message: 'API key not valid. Please pass a valid API key.' });
    expect(bad.details[0].reason).toBe('API_KEY_INVALID');
    expect(JSON.parse(nativeError(429)).error.status).toBe('RESOURCE_EXHAUSTED');
    expect(JSON.parse(nativeError(504)).error.status).toBe('DEADLINE_EXCEEDED');
  });

  it('nativeAnswer reads text (thoughts excluded), finish reasons and the prompt block reason', () => {
    expect(nativeAnswer(JSON.parse(nativeResponse({ text: 'Hi' })))).toMatchObject({ text: 'Hi', finishReasons: ['STOP'], blockReason: null, candidates: 1 });
    expect(nativeAnswer(JSON.parse(blockedResponse()))).toMatchObject({ text: '', finishReasons: ['SAFETY'] });
    expect(nativeAnswer(JSON.parse(promptBlockedResponse()))).toMatchObject({ text: '', finishReasons: [], blockReason: 'SAFETY', candidates: 0 });
    const thought = { candidates: [{ content: { parts: [{ text: 'thinking...', thought: true }] }, finishReason: 'MAX_TOKENS' }] };
    expect(nativeAnswer(thought)).toMatchObject({ text: '', finishReasons: ['MAX_TOKENS'] });
    expect(nativeAnswer(undefined)).toMatchObject({ text: '', candidates: 0 });
  });
});

describe('native check helpers', () => {
  it('path families are judged on the decoded path, so an encoded ":" stays native', () => {
    expect(pathFamily('/v1beta/models/gemini-2.5-flash:generateContent')).toBe('native');
    expect(pathFamily('/v1beta/models/gemini-2.5-flash%3AstreamGenerateContent?alt=sse&key=x')).toBe('native');
    expect(pathFamily('/v1/chat/completions')).toBe('chat');
    expect(pathFamily('/v1/v1/chat/completions')).toBe('chat');
    expect(pathFamily('/v1/messages')).toBe('messages');
    expect(pathFamily('/v2/elsewhere')).toBe('other');
  });

  it('credentialsAt names each credential and whose it is, never its value', () => {
    const gateway = new GatewayClient('http://127.0.0.1:9', { token: 'sk-run-SECRET', timeoutMs: 1000 });
    const ctx = { gateway } as unknown as CheckContext;
    const seen = { url: '/v1beta/models/m:generateContent?alt=sse&key=sk-run-SECRET', rawHeaders: [['x-goog-api-key', 'gw-own-key'], ['Authorization', 'Bearer sk-run-SECRET']] } as unknown as RecordedRequest;
    const found = credentialsAt(ctx, seen);
    expect(found).toEqual(["x-goog-api-key header (another value: the gateway's own credential?)", "authorization header (the client's key)", "?key= query (the client's key)"]);
    expect(found.join()).not.toContain('SECRET');
    void gateway.close();
  });

  it('the ?key= credential is added to the URL by the client and masked in evidence and reports', () => {
    const gateway = new GatewayClient('http://gw.example/base/', { token: 'k/ey+1', timeoutMs: 1000 });
    expect(gateway.url('/v1beta/models/m:generateContent', 'key-query')).toBe('http://gw.example/base/v1beta/models/m:generateContent?key=k%2Fey%2B1');
    expect(gateway.url('/v1beta/models/m:streamGenerateContent?alt=sse', 'key-query')).toMatch(/\?alt=sse&key=k%2Fey%2B1$/);
    expect(gateway.credentialHeaders('x-goog-api-key')).toEqual([['x-goog-api-key', 'k/ey+1']]);
    expect(maskUrl('/p?alt=sse&key=abc&x=1')).toBe('/p?alt=sse&key=***&x=1');
    expect(scrubSecrets('{"url":"/p?key=other"}', [])).toBe('{"url":"/p?key=***"}');
    void gateway.close();
  });

  it('generated native bodies are JSON, start with contents and carry the case placeholder in the first text part', () => {
    fc.assert(
      fc.property(nativeBody, (text) => {
        const v = JSON.parse(text);
        expect(Array.isArray(v.contents)).toBe(true);
        expect(v.contents[0].parts[0].text.startsWith(CASE_PLACEHOLDER)).toBe(true);
        expect(v).not.toHaveProperty('messages');
      }),
      { numRuns: 200, seed: 7 },
    );
  });
});

describe('native faults of the reference gateway', () => {
  it('encode-native-colon encodes only the method separator', () => {
    const p = parts('/v1beta/models/gemini-2.0-flash-001:streamGenerateContent?alt=sse');
    faultByName('encode-native-colon')!.request!(p);
    expect(p.path).toBe('/v1beta/models/gemini-2.0-flash-001%3AstreamGenerateContent?alt=sse');
  });

  it('native-body-to-chat moves the native request to the chat path with its query and body', () => {
    const p = parts('/v1beta/models/m:generateContent?key=abc', '{"contents":[]}');
    faultByName('native-body-to-chat')!.request!(p);
    expect(p.path).toBe('/v1/chat/completions?key=abc');
    expect(p.body.toString()).toBe('{"contents":[]}');
  });

  it('drop-goog-api-key removes the header and the key query, keeping other parameters', () => {
    for (const [path, want] of [
      ['/v1beta/models/m:generateContent?key=abc', '/v1beta/models/m:generateContent'],
      ['/v1beta/models/m:streamGenerateContent?alt=sse&key=abc', '/v1beta/models/m:streamGenerateContent?alt=sse'],
      ['/v1beta/models/m:streamGenerateContent?key=abc&alt=sse', '/v1beta/models/m:streamGenerateContent?alt=sse'],
    ]) {
      const p = parts(path, '{}', [['X-Goog-Api-Key', 'k'], ['content-type', 'application/json']]);
      faultByName('drop-goog-api-key')!.request!(p);
      expect(p.path).toBe(want);
      expect(p.headers).toEqual([['content-type', 'application/json']]);
    }
  });

  it('blocked-as-empty-success turns a blocked JSON answer and a blocked streamed frame into an empty STOP', async () => {
    const fault = faultByName('blocked-as-empty-success')!;
    expect(fault.responseWhen!(parts('/v1beta/models/m:generateContent'))).toBe(true);
    expect(fault.responseWhen!(parts('/v1/chat/completions'))).toBe(false);
    const r = fault.response!(200, { 'content-type': 'application/json' }, Buffer.from(blockedResponse()), parts('/v1beta/models/m:generateContent'));
    expect(nativeAnswer(JSON.parse(r!.body.toString()))).toMatchObject({ text: '', finishReasons: ['STOP'] });
    const ok = fault.response!(200, { 'content-type': 'application/json' }, Buffer.from(nativeResponse({ text: 'Hi' })), parts('/v1beta/models/m:generateContent'));
    expect(nativeAnswer(JSON.parse(ok!.body.toString())).text).toBe('Hi');
    // Frames split at every 7 bytes still come out whole; only the blocked frame changes.
    const frames = nativeFrames(nativeStream({ pieces: ['Once'], blockedWith: 'SAFETY' })).map((f) => f.data);
    const out = await throughStream('blocked-as-empty-success', '/v1beta/models/m:streamGenerateContent?alt=sse', frames.join(''), 7);
    const outFrames = out.split('\r\n\r\n').filter(Boolean);
    expect(outFrames[0]).toBe(frames[0].replace(/\r\n\r\n$/, ''));
    expect(JSON.parse(outFrames[1].slice(6)).candidates[0]).toMatchObject({ finishReason: 'STOP', content: { parts: [{ text: '' }] } });
  });
});
