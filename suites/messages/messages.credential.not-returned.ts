// CRED-1: the client's credential never comes back to it, in any header or body and in any
// encoding (as is, URL-encoded, JSON-escaped, hex, base64 at any alignment), on a JSON answer, a
// stream, an upstream error, the model list and the gateway's own refusal of an unknown key; and
// the gateway never moves a credential from a header into the URL it forwards.
import { defineCheck, type CheckContext } from '../../src/check/check.js';
import { ANTHROPIC_VERSION, messagesHeaders } from '../../src/client/gateway.js';
import { withToken } from '../../src/upstream/contract.js';
import { SSE_HEADERS } from '../../src/upstream/scenario.js';
import { errorBody, MODEL_LIST_HEADERS, modelListBody, frames, messageStream } from '../../src/protocols/messages/index.js';
import { BAD_CREDENTIAL } from '../shared/shape.js';
import { exchange, streamThrough } from '../shared/exchange.js';
import { MESSAGES_PATH, messagesBody } from '../shared/protocols.js';
import { judgeNoEcho, type SeenAnswer } from '../shared/credential-echo.js';

/** The answers CRED-1 reads: JSON, stream, upstream error, model list, each with the run's key; and an unknown key's request. */
async function answers(ctx: CheckContext, key: string): Promise<SeenAnswer[]> {
  const seen: SeenAnswer[] = [];
  const json = await exchange(ctx, messagesBody({}), { auth: 'x-api-key' as const });
  seen.push({ what: 'messages JSON (x-api-key)', secret: key, headers: json.res.rawHeaders, body: json.res.text(), upstream: json.seen });
  const reply = { kind: 'sse' as const, status: 200, headers: SSE_HEADERS, frames: frames(messageStream({ full: false, textDeltas: 2 })) };
  const stream = await streamThrough(ctx, reply, { path: MESSAGES_PATH, auth: 'bearer', body: messagesBody({ stream: true }), headers: [['anthropic-version', ANTHROPIC_VERSION]] });
  seen.push({ what: 'messages stream (Bearer)', secret: key, headers: stream.res.rawHeaders, body: stream.res.raw.toString('utf8'), upstream: stream.seen });
  const err = await exchange(ctx, messagesBody({}), { auth: 'x-api-key', reply: (c) => c.upstream.next().json(errorBody(429, 'Number of request tokens has exceeded your per-minute rate limit'), { status: 429 }) });
  seen.push({ what: 'upstream 429 (x-api-key)', secret: key, headers: err.res.rawHeaders, body: err.res.text(), upstream: err.seen });
  const list = ctx.upstream.next().json(modelListBody(), { headers: MODEL_LIST_HEADERS });
  const models = await ctx.gateway.send({ method: 'GET', path: '/v1/models?limit=1000', auth: 'bearer', headers: [['anthropic-version', ANTHROPIC_VERSION]], caseToken: list.token, signal: ctx.signal });
  seen.push({ what: 'model list (Bearer)', secret: key, headers: models.rawHeaders, body: models.text(), upstream: await list.received(models.status < 300 ? 1000 : 200) });
  const bad = ctx.upstream.next().error(401, { message: 'invalid x-api-key' });
  const refused = await ctx.gateway.send({ method: 'POST', path: MESSAGES_PATH, auth: 'none', headers: [...messagesHeaders(), ['x-api-key', BAD_CREDENTIAL]], body: withToken(messagesBody({}), bad.token), caseToken: bad.token, signal: ctx.signal });
  seen.push({ what: 'unknown key refused (x-api-key)', secret: BAD_CREDENTIAL, headers: refused.rawHeaders, body: refused.text(), upstream: await bad.received(200) });
  return seen;
}

export default defineCheck({
  id: 'messages.credential.not-returned',
  title: 'The client\'s credential never comes back in a header or body, in any encoding, nor moves into the forwarded URL',
  requirements: ['CRED-1'],
  level: 'MUST',
  protocol: 'messages',
  requirement:
    "On a JSON answer, a stream, an upstream error, the model list and a refused unknown key, no form of the credential the request carried (as is, URL-encoded, JSON-escaped, hex, base64) appears in the answer's headers or body, and the forwarded URL carries none.",
  fix: 'Never echo a request\'s credential back to the client: no debug or tracing header that copies `Authorization`, `x-api-key` or `x-goog-api-key` (encoded or not), no error message that quotes the key it refused, no body that reflects the request headers. Forward a credential in the header it came in; never move it into the URL, where access logs and proxies keep it.',
  run: (ctx) => judgeNoEcho(ctx, 'x-api-key', (key) => answers(ctx, key), { kind: ' ', url: 'in the forwarded URL' }),
});
