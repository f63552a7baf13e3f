// One protocol's smallest request (its record's minimalRequest) through the gateway with a
// scripted reply written in that protocol (an answer, or an error of a status), and both sides
// of the exchange: for checks that judge the same thing on every protocol (AUTH-UP-1,
// RETRY-POST-1) without a body of their own.
import type { CheckContext } from '../../src/check/check.js';
import type { AuthStyle } from '../../src/client/gateway.js';
import { DEFAULT_MODEL, jsonReply, minimalRequest, RECORDS, type Protocol } from '../../src/protocols/index.js';
import { ERROR_MESSAGES } from '../../src/protocols/messages/index.js';
import type { HeaderList, Reply } from '../../src/upstream/scenario.js';
import type { Exchange } from './exchange.js';

/** The upstream's reply to a minimal request of `p`: its answer, or its error of `status` (with `headers`). */
export function minimalReply(p: Protocol, token: string, error?: { status: number; headers?: HeaderList }): Reply {
  const r = RECORDS[p].replies;
  if (error) return { ...jsonReply(r, r.error({ status: error.status, message: `${token} ${ERROR_MESSAGES[error.status] ?? `scripted ${error.status}`}` }), error.status, error.headers ?? []), protocol: p };
  return { ...jsonReply(r, r.answer({ model: DEFAULT_MODEL[p], text: `${token} answer`, toolCalls: [], stop: 'end', usage: { input: 12, output: 2 } })), protocol: p };
}

/** Sends `p`'s minimal request (credential `auth`, the protocol's own by default; extra `headers`) with `reply` scripted for it; waits for what reached the upstream as `exchange` does. */
export async function minimalExchange(ctx: CheckContext, p: Protocol, opts: { auth?: AuthStyle; headers?: Array<[string, string]>; reply?: (token: string) => Reply } = {}): Promise<Exchange> {
  const expectation = ctx.upstream.answer((token) => (opts.reply ?? ((t) => minimalReply(p, t)))(token));
  const m = minimalRequest(p, { text: `${expectation.token} hello`, maxTokens: 16 });
  const res = await ctx.gateway.send({ method: m.method, path: m.path, auth: opts.auth ?? m.auth, headers: [...m.headers, ...(opts.headers ?? [])], body: m.body, caseToken: expectation.token, signal: ctx.signal });
  const seen = await expectation.received(res.status < 300 ? 1000 : 200);
  return { sent: m.body, res, seen, expectation };
}
