// CRED-1 on the native protocol: the x-goog-api-key header and the ?key= query the native
// clients send never come back to them, in any header or body and in any encoding, on a JSON
// answer, a stream, an upstream error and the gateway's refusal of an unknown key; and the
// header's credential never moves into the forwarded URL. (messages.credential.not-returned
// holds the Bearer and x-api-key styles to the same rule.)
import { defineCheck, type CheckContext } from '../../src/check/check.js';
import type { AuthStyle } from '../../src/client/gateway.js';
import { nativeBadKey, nativeError, nativeJsonReply } from '../../src/protocols/native/index.js';
import { BAD_CREDENTIAL } from '../shared/shape.js';
import { exchange, nativeSend } from '../shared/exchange.js';
import { nativeBody } from '../shared/protocols.js';
import { judgeNoEcho, type SeenAnswer } from '../shared/credential-echo.js';

/** The native answers CRED-1 reads: each credential style on a JSON answer, a stream and an upstream error; an unknown key's request. */
async function answers(ctx: CheckContext, key: string): Promise<SeenAnswer[]> {
  const seen: SeenAnswer[] = [];
  const cases: Array<{ what: string; auth: AuthStyle; stream?: boolean; error?: boolean }> = [
    { what: 'native JSON (x-goog-api-key)', auth: 'x-goog-api-key' },
    { what: 'native JSON (?key=)', auth: 'key-query' },
    { what: 'native stream (x-goog-api-key)', auth: 'x-goog-api-key', stream: true },
    { what: 'native stream (?key=)', auth: 'key-query', stream: true },
    { what: 'upstream 429 (x-goog-api-key)', auth: 'x-goog-api-key', error: true },
  ];
  for (const c of cases) {
    const x = await exchange(ctx, nativeBody(), nativeSend({ auth: c.auth, stream: c.stream, ...(c.error ? { reply: nativeJsonReply(nativeError(429), 429) } : {}) }));
    seen.push({ what: c.what, secret: key, headers: x.res.rawHeaders, body: x.res.text(), upstream: x.seen, inUrl: c.auth === 'key-query' });
  }
  const bad = await exchange(ctx, nativeBody(), { ...nativeSend({ auth: 'none', reply: nativeJsonReply(nativeBadKey(), 400) }), headers: [['x-goog-api-key', BAD_CREDENTIAL]] });
  seen.push({ what: 'unknown key refused (x-goog-api-key)', secret: BAD_CREDENTIAL, headers: bad.res.rawHeaders, body: bad.res.text(), upstream: bad.seen });
  return seen;
}

export default defineCheck({
  id: 'native.credential.not-returned',
  title: "The native credential (x-goog-api-key, ?key=) never comes back in a header or body, in any encoding, nor moves from the header into the forwarded URL",
  requirements: ['CRED-1'],
  level: 'MUST',
  protocol: 'native',
  requirement:
    "On native JSON answers and streams sent with x-goog-api-key and with ?key=, an upstream error and a refused unknown key, no form of the credential the request carried (as is, URL-encoded, JSON-escaped, hex, base64) appears in the answer's headers or body, and a credential sent in the header is not in the forwarded URL.",
  fix: 'Never echo a request\'s credential back to the client: no header that copies `x-goog-api-key` (or the `?key=` query) as it came or encoded, no error message that quotes the key it refused, no body that reflects the request. Forward a header credential in a header, never in the URL.',
  run: (ctx) => judgeNoEcho(ctx, 'x-goog-api-key', (key) => answers(ctx, key), { kind: ' native ', url: 'a header credential in the forwarded URL' }),
});
