// HDR-OK-1 on the messages protocol: the request id and the rate-limit headers of a successful
// answer reach the client, on a JSON answer and on a stream: a gateway may keep them on errors
// and still strip them from the answers that succeed.
import { defineCheck } from '../../src/check/check.js';
import type { HeaderList } from '../../src/upstream/scenario.js';
import { SSE_HEADERS } from '../../src/upstream/scenario.js';
import { messageBody, frames, messageStream } from '../../src/protocols/messages/index.js';
import { messagesBody, MESSAGES_PATH } from '../shared/protocols.js';
import { exchange, streamThrough } from '../shared/exchange.js';
import { successHeadersVerdict, type SuccessAnswer } from '../shared/headers.js';

const RESET = '2026-11-27T05:00:17Z';

/** A successful messages answer's headers: the request id, the per-minute limits and the unified (subscription) limits. */
const MESSAGES_HEADERS: HeaderList = [
  ['request-id', 'req_011CVgwcSuccessHeaders0001'],
  ...['requests', 'tokens', 'input-tokens', 'output-tokens'].flatMap((kind): HeaderList => [
    [`anthropic-ratelimit-${kind}-limit`, '4000'],
    [`anthropic-ratelimit-${kind}-remaining`, '3999'],
    [`anthropic-ratelimit-${kind}-reset`, RESET],
  ]),
  ['anthropic-ratelimit-unified-status', 'allowed'],
  ['anthropic-ratelimit-unified-reset', '1795755600'],
  ['anthropic-ratelimit-unified-5h-status', 'allowed'],
  ['anthropic-ratelimit-unified-5h-reset', '1795755600'],
  ['anthropic-ratelimit-unified-5h-utilization', '0.42'],
  ['anthropic-ratelimit-unified-7d-status', 'allowed_warning'],
  ['anthropic-ratelimit-unified-7d-utilization', '0.81'],
  ['anthropic-ratelimit-unified-representative-claim', 'five_hour'],
  ['anthropic-ratelimit-unified-fallback-percentage', '0.5'],
];

export default defineCheck({
  id: 'messages.headers.success-passthrough',
  title: 'request-id and the rate-limit headers of a 200 answer, JSON and streamed, reach the client',
  requirements: ['HDR-OK-1'],
  level: 'SHOULD',
  untranslatable: 'the upstream\'s own request-id and rate-limit headers',
  protocol: 'messages',
  requirement: "On a successful messages answer, JSON or streamed, the upstream's request-id and every anthropic-ratelimit-* header (the unified ones included) reach the client unchanged.",
  fix: 'Forward the upstream\'s response headers on successful answers as on errors: `request-id` and every `anthropic-ratelimit-*` header (the `anthropic-ratelimit-unified-*` ones included), on JSON answers and on streams. A gateway that rebuilds the headers of a 2xx from a list of its own must let these through (nginx passes them unless `proxy_hide_header` names them).',
  async run(ctx) {
    const answers: SuccessAnswer[] = [];
    const json = await exchange(ctx, messagesBody({}), { reply: (c) => c.upstream.next().json(messageBody(), { headers: MESSAGES_HEADERS }) });
    answers.push({ what: 'messages JSON', sent: MESSAGES_HEADERS, status: json.res.status, got: json.res.rawHeaders });
    const reply = { kind: 'sse' as const, status: 200, headers: [...SSE_HEADERS, ...MESSAGES_HEADERS], frames: frames(messageStream({ full: false, textDeltas: 2 })) };
    const stream = await streamThrough(ctx, reply, { path: MESSAGES_PATH, body: messagesBody({ stream: true }), headers: [['anthropic-version', '2023-06-01']] });
    answers.push({ what: 'messages stream', sent: MESSAGES_HEADERS, status: stream.res.status, got: stream.res.rawHeaders });
    return successHeadersVerdict(answers, json.res, 'request-id and every rate-limit header');
  },
});
