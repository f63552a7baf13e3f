// CACHE-KEY-1 on messages answers the upstream marks cacheable (max-age): a request that differs
// from an earlier one in the prompt, in max_tokens, in `stream` or in its key is never answered
// from the earlier one's cache entry, and the same request answered from a cache gets an answer
// framed for its own connection. The upstream answers each request of a pair with its own content.
import { defineCheck } from '../../src/check/check.js';
import { messagesHeaders } from '../../src/client/gateway.js';
import { messageBody, frames, messageStream } from '../../src/protocols/messages/index.js';
import { SSE_HEADERS, type JsonReply } from '../../src/upstream/scenario.js';
import { judgeKeyPairs, keyPair, type KeyedRequest, type KeyPair } from '../shared/cache-key.js';
import { MESSAGES_PATH, messagesBody } from '../shared/protocols.js';

const CACHEABLE: Array<[string, string]> = [['cache-control', 'max-age=300']];

const req = (body: string, auth: KeyedRequest['auth'] = 'x-api-key'): KeyedRequest => ({ method: 'POST', path: MESSAGES_PATH, headers: messagesHeaders(), body, auth });

/** Each pair: the second request differs from the first in one thing, or (the last) in nothing. */
const PAIRS: KeyPair[] = [
  { differs: 'the prompt', first: req(messagesBody({}, 'hello')), second: req(messagesBody({}, 'goodbye')) },
  { differs: 'max_tokens', first: req(messagesBody({ max_tokens: 1024 })), second: req(messagesBody({ max_tokens: 64 })) },
  { differs: 'stream', first: req(messagesBody({})), second: req(messagesBody({ stream: true })) },
  { differs: 'the credential (another key in x-api-key)', first: req(messagesBody({})), second: req(messagesBody({}), 'other') },
  { differs: 'nothing', same: true, first: req(messagesBody({})), second: req(messagesBody({})) },
];

/** The answer to a pair's first request, and (its `later`) another one to the second: a JSON answer of other text, or a stream when the second asks for one. */
function replies(pair: KeyPair): JsonReply {
  const second = pair.differs === 'stream'
    ? { kind: 'sse' as const, protocol: 'messages' as const, status: 200, headers: SSE_HEADERS, frames: frames(messageStream({ textDeltas: 2 })) }
    : { kind: 'json' as const, protocol: 'messages' as const, status: 200, headers: [['content-type', 'application/json'], ...CACHEABLE] as Array<[string, string]>, body: messageBody({ text: "the second request's answer" }) };
  return { kind: 'json', protocol: 'messages', status: 200, headers: [['content-type', 'application/json'], ...CACHEABLE], body: messageBody({ text: "the first request's answer" }), later: [second] };
}

export default defineCheck({
  id: 'messages.response.cache-key',
  title: 'A cached messages answer is never served to a request that differs in a body field, in stream or in credential, and is replayed framed for its own connection',
  requirements: ['CACHE-KEY-1'],
  level: 'MUST',
  untranslatable: "the upstream's cache-control on the answer",
  protocol: 'messages',
  requirement:
    "POST /v1/messages answered with cache-control: max-age, then a request that differs from it only in the prompt, in max_tokens, in stream or in its x-api-key: each reaches the upstream (or is refused), never answered from the first one's entry; the same request sent again may be answered from a cache, but with an answer the client reads (no Content-Length beside Transfer-Encoding, none that the body does not have) (CACHE-KEY-1).",
  fix: 'Key a response cache on everything that shapes the answer: the whole request body (every field, `stream` included, or a hash of the exact bytes), the path and query, and the credential in whichever header or parameter it came (`Authorization`, `x-api-key`, `x-goog-api-key`, `?key=`). Never answer a streaming request from a JSON entry or the reverse. When replaying an entry, write the framing for the new connection: drop the stored `Transfer-Encoding`, `Connection`, `Keep-Alive` and `Content-Length` and send the length of the body you send. In nginx, a `proxy_cache_key` for POST needs `$request_body` and the credential headers (`$http_authorization$http_x_api_key`); nginx writes the framing itself.',
  async run(ctx) {
    const results = await Promise.all(PAIRS.map((p) => keyPair(ctx, p, () => ctx.upstream.register(replies(p)))));
    return judgeKeyPairs(results);
  },
});
