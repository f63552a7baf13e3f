// CRED-1's shared scan (suites/shared/credential-echo.ts): a credential handed back in any
// header or body, in any encoding, is found; one moved from a header into the forwarded URL is
// found; one the client itself sent in the URL (?key=) may stay there.
import { describe, expect, it } from 'vitest';
import { credentialLeaks, type SeenAnswer } from '../../../suites/shared/credential-echo.js';
import type { RecordedRequest } from '../../../src/upstream/record.js';

const KEY = 'AIzaSyGwcTestKey0123456789abcdefghij';
const at = (url: string) => ({ url }) as RecordedRequest;
const answer = (o: Partial<SeenAnswer>): SeenAnswer => ({ what: 'native JSON', secret: KEY, headers: [['content-type', 'application/json']], body: '{}', upstream: at('/v1beta/models/m:generateContent'), ...o });

describe('credentialLeaks', () => {
  it('finds nothing in a clean answer', () => {
    expect(credentialLeaks(answer({}))).toEqual([]);
  });
  it('finds the native key echoed as it came in an answer header', () => {
    expect(credentialLeaks(answer({ headers: [['x-goog-api-key', KEY]] }))).toEqual(['native JSON: response header x-goog-api-key']);
  });
  it('finds it base64-encoded in a header and JSON-escaped in the body', () => {
    const b64 = Buffer.from(`x-goog-api-key: ${KEY}`).toString('base64');
    expect(credentialLeaks(answer({ headers: [['x-debug', b64]], body: JSON.stringify({ echo: KEY }) }))).toEqual(['native JSON: response header x-debug', 'native JSON: response body']);
  });
  it('finds a header credential moved into the forwarded URL, and lets a ?key= the client sent stay there', () => {
    const url = at(`/v1beta/models/m:generateContent?key=${KEY}`);
    expect(credentialLeaks(answer({ upstream: url }))).toHaveLength(1);
    expect(credentialLeaks(answer({ upstream: url, inUrl: true }))).toEqual([]);
  });
});
