// RESP-HDR-1: the headers by which Codex names its session, thread, window and turn (session_id
// of earlier releases, session-id, thread-id, originator, x-codex-*) reach the upstream on a
// Responses API passthrough: the upstream's prompt cache keys on them.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { responsesJsonReply, responsesAnswer } from '../../src/protocols/responses/index.js';
import { headerValues } from '../../src/upstream/record.js';
import { exchange, notForwarded, responsesSend } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { responsesBody } from '../shared/protocols.js';

const SESSION = '0193f6a2-7c41-7d55-9b1e-6f0c2d8a4b17';

/** What Codex CLI 0.171.0 sends beside the body (its capture), and `session_id`, the underscore form of its earlier releases. */
const CLIENT_HEADERS: Array<[string, string]> = [
  ['session_id', SESSION],
  ['session-id', SESSION],
  ['thread-id', SESSION],
  ['originator', 'codex_exec'],
  ['x-client-request-id', SESSION],
  ['x-codex-window-id', `${SESSION}:0`],
  ['x-codex-beta-features', 'remote_compaction_v2'],
  ['x-codex-turn-metadata', JSON.stringify({ session_id: SESSION, thread_id: SESSION, turn_id: '0193f6a2-7c41-7d55-9b1e-6f0c2d8a4b18', window_number: 0, request_kind: 'turn' })],
];

export default defineCheck({
  id: 'responses.headers.client',
  title: 'Codex\'s client-identifying headers (session_id, session-id, thread-id, originator, x-codex-*) reach the upstream',
  requirements: ['RESP-HDR-1'],
  level: 'SHOULD',
  untranslatable: 'the client\'s own headers, name for name',
  protocol: 'responses',
  requirement:
    'On a Responses API passthrough the headers a client names its session and turn by reach the upstream with their values: `session_id` and `session-id`, `thread-id`, `originator`, `x-client-request-id` and the `x-codex-*` headers; the gateway may add its own beside them.',
  fix: 'Forward the client\'s `session_id`, `session-id`, `thread-id`, `originator`, `x-client-request-id` and `x-codex-*` headers on `/v1/responses` (nginx drops names with an underscore unless `underscores_in_headers on;`); the upstream\'s prompt cache routes by them, and without them cache hits fall to near zero.',
  async run(ctx) {
    const x = await exchange(ctx, responsesBody(), responsesSend({ reply: responsesJsonReply(responsesAnswer()), headers: CLIENT_HEADERS }));
    if (!x.seen) return notForwarded(x);
    const lost = CLIENT_HEADERS.filter(([k, v]) => !headerValues(x.seen!, k).includes(v));
    const evidence = exchangeEvidence(x);
    if (lost.length)
      return fail(`${lost.length} of the client's ${CLIENT_HEADERS.length} identifying headers did not reach the upstream as sent: ${lost.map(([k]) => `${k} (${headerValues(x.seen!, k).length ? 'changed' : 'dropped'})`).join(', ')}`, { expected: CLIENT_HEADERS.map(([k]) => k).join(', '), actual: lost.map(([k]) => `${k}: ${headerValues(x.seen!, k).join(', ') || '(absent)'}`).join('\n'), evidence });
    return pass(`all ${CLIENT_HEADERS.length} identifying headers reached the upstream as sent`, evidence);
  },
});
