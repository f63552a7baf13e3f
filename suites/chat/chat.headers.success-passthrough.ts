// HDR-OK-1 on the chat-completions protocol: the request id and the x-ratelimit-* headers of a
// successful answer reach the client, on a JSON answer and on a stream: a gateway may keep them
// on errors and still strip them from the answers that succeed.
import { defineCheck } from '../../src/check/check.js';
import type { HeaderList } from '../../src/upstream/scenario.js';
import { CHAT_JSON_HEADERS, CHAT_SSE_HEADERS, chatCompletion, chatFrames, chatStream } from '../../src/protocols/chat/index.js';
import { CHAT_PATH, chatBody } from '../shared/protocols.js';
import { chatSend, exchange, streamThrough } from '../shared/exchange.js';
import { successHeadersVerdict } from '../shared/headers.js';

/** The rate-limit headers of a successful chat answer, as the OpenAI API sends them. */
const RATE_LIMITS: HeaderList = [
  ['x-ratelimit-limit-requests', '10000'],
  ['x-ratelimit-limit-tokens', '2000000'],
  ['x-ratelimit-remaining-requests', '9999'],
  ['x-ratelimit-remaining-tokens', '1999962'],
  ['x-ratelimit-reset-requests', '6ms'],
  ['x-ratelimit-reset-tokens', '1ms'],
];

/** Of a reply's headers, the ones HDR-OK-1 asks for: the request id and the rate limits. */
const wanted = (headers: HeaderList): HeaderList => [...headers.filter(([k]) => k === 'x-request-id'), ...RATE_LIMITS];

export default defineCheck({
  id: 'chat.headers.success-passthrough',
  title: 'x-request-id and the x-ratelimit-* headers of a 200 chat answer, JSON and streamed, reach the client',
  requirements: ['HDR-OK-1'],
  level: 'SHOULD',
  untranslatable: 'the upstream\'s own x-request-id and rate-limit headers',
  protocol: 'chat',
  requirement: "On a successful chat-completions answer, JSON or streamed, the upstream's x-request-id and every x-ratelimit-* header reach the client unchanged.",
  fix: 'Forward the upstream\'s response headers on successful chat answers as on errors: `x-request-id` and every `x-ratelimit-*` header, on JSON answers and on streams. OpenAI clients read the remaining requests and tokens from a 200 to pace themselves; a gateway that rebuilds the headers of a 2xx from a list of its own must let these through.',
  async run(ctx) {
    const jsonHeaders = [...CHAT_JSON_HEADERS, ...RATE_LIMITS];
    const json = await exchange(ctx, chatBody(), chatSend({ reply: { kind: 'json', protocol: 'chat', status: 200, headers: jsonHeaders, body: chatCompletion() } }));
    const sseHeaders = [...CHAT_SSE_HEADERS, ...RATE_LIMITS];
    const frames = chatFrames(chatStream({ includeUsage: true }));
    const stream = await streamThrough(ctx, { kind: 'sse', protocol: 'chat', status: 200, headers: sseHeaders, frames }, { path: CHAT_PATH, auth: 'bearer', body: chatBody({ stream: true, stream_options: { include_usage: true } }) });
    const answers = [
      { what: 'chat JSON', sent: wanted(jsonHeaders), status: json.res.status, got: json.res.rawHeaders },
      { what: 'chat stream', sent: wanted(sseHeaders), status: stream.res.status, got: stream.res.rawHeaders },
    ];
    return successHeadersVerdict(answers, json.res, 'x-request-id and every x-ratelimit-* header');
  },
});
