// FRAME-1: answers the gateway may have rewritten or re-encoded (a gzip answer it may decode, an
// error it may replace, an empty error it may fill, a JSON answer to a stream request it may turn
// into a stream, a stream) are framed by what they carry. Read raw from the socket
// (src/client/raw.ts): undici cuts a body longer than its Content-Length without a word.
import { defineCheck, fail, pass, type CheckContext } from '../../src/check/check.js';
import { messagesHeaders } from '../../src/client/gateway.js';
import { rawExchange, type RawAnswer } from '../../src/client/raw.js';
import { messageBody } from '../../src/protocols/messages/index.js';
import { withToken } from '../../src/upstream/contract.js';
import { JSON_HEADERS } from '../../src/upstream/scenario.js';
import type { Expectation } from '../../src/upstream/upstream.js';
import { MESSAGES_PATH, messagesBody } from '../shared/protocols.js';
import { cutBytes } from '../shared/evidence.js';
import { framingProblem } from './framing.js';

/**
 * How long the check waits for the gateway to close the connection after asking it to
 * (`Connection: close`). Each answer here is whole at the upstream at once and a few KiB, so a
 * gateway that has sent what it will send closes within milliseconds; 5 s is the margin (the
 * process's own holds are not counted, src/core/stall.ts).
 */
const CLOSE_BOUND_MS = 5000;

interface Case {
  what: string;
  body: string;
  headers?: Array<[string, string]>;
  reply(ctx: CheckContext): Expectation;
}

const CASES: Case[] = [
  { what: 'a gzip-compressed message (a gateway may decode it)', body: messagesBody({}), headers: [['accept-encoding', 'gzip']], reply: (c) => c.upstream.next().json(messageBody(), { gzip: true }) },
  { what: 'a 400 error (a gateway may replace it)', body: messagesBody({}), reply: (c) => c.upstream.next().error(400) },
  { what: 'a 502 with an empty body (a gateway may fill it)', body: messagesBody({}), reply: (c) => c.upstream.register({ kind: 'json', status: 502, headers: JSON_HEADERS, body: '' }) },
  { what: 'a JSON answer to a stream request (a gateway may turn it into a stream)', body: messagesBody({ stream: true }), reply: (c) => c.upstream.next().json(messageBody()) },
];

/** One case through the gateway, read raw. */
async function oneCase(ctx: CheckContext, c: Case): Promise<{ answer: RawAnswer; problem: string | null; how: string; unjudged?: string }> {
  const e = c.reply(ctx);
  const answer = await rawExchange(ctx.gateway, { method: 'POST', path: MESSAGES_PATH, headers: [...messagesHeaders(), ...(c.headers ?? [])], body: withToken(c.body, e.token), caseToken: e.token, signal: ctx.signal }, CLOSE_BOUND_MS);
  return { answer, ...framingProblem(answer, CLOSE_BOUND_MS) };
}

const rawEvidence = (a: RawAnswer) => ({ status: a.status, headers: a.headers, bodyBytes: a.body.length, ended: a.ended, body: cutBytes(a.body, 300) });

export default defineCheck({
  id: 'messages.framing.length',
  title: 'Answers the gateway may rewrite (decoded, replaced, filled, turned into a stream) are framed by the bytes they carry',
  requirements: ['FRAME-1'],
  level: 'MUST',
  protocol: 'messages',
  requirement: `Four messages requests, each read raw from the socket over HTTP/1.1 with \`Connection: close\`: one whose answer the upstream gzips (the client accepts gzip), one answered 400, one answered 502 with an empty body, and one asking for a stream that the upstream answers in JSON. Each answer's \`Content-Length\` equals the body bytes that follow it, or it is chunked to its last chunk without any \`Content-Length\`, or it has neither and the gateway closes the connection after it (within ${CLOSE_BOUND_MS} ms); never both headers (FRAME-1).`,
  fix: 'Frame every answer by the body actually sent: when the gateway decodes, replaces, fills or re-encodes a body, drop the upstream\'s `Content-Length` and set the new body\'s (or stream it chunked without any `Content-Length`); never send `Content-Length` beside `Transfer-Encoding`. nginx does this itself for bodies it changes (`gunzip on;`, `error_page`); a gateway of your own must not copy the upstream\'s framing headers onto a body it rewrote.',
  async run(ctx) {
    if (ctx.gateway.connectOptions.useH2c) return { ok: true, skip: true, message: 'not observed: the run speaks h2c to the gateway (--http2 h2c), where HTTP/1.1 framing does not apply' };
    const hows: string[] = [];
    const unjudged: string[] = [];
    for (const c of CASES) {
      const r = await oneCase(ctx, c);
      if (r.answer.status === 0) unjudged.push(`${c.what} got no HTTP/1.1 answer head (${r.answer.ended}${r.answer.error ? `: ${r.answer.error}` : ''})`);
      else if (r.problem) return fail(`${c.what}: ${r.problem}`, { expected: 'Content-Length equal to the body, or chunked without Content-Length, or neither and a close', actual: r.how, evidence: { case: c.what, answer: rawEvidence(r.answer) } });
      else if (r.unjudged) unjudged.push(`${c.what}: ${r.unjudged}`);
      else hows.push(`${c.what}: ${r.answer.status}, ${r.how}`);
    }
    // A case whose answer never ended (or never came) proves nothing of its framing: the check says so rather than pass.
    if (unjudged.length) return { ok: true, skip: true, message: `not observed: the framing of ${unjudged.length} of ${CASES.length} answers could not be judged (${unjudged.join('; ')})${hows.length ? `; the others were framed right (${hows.join('; ')})` : ''}` };
    return pass(hows.join('; '));
  },
});
