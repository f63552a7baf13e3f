// ENC-1 on a translated route: a messages request whose body is compressed (gzip, then zstd)
// cannot go upstream as the same bytes when the route forwards another protocol, so the gateway
// decodes it whole and forwards the translated request (plain JSON, no Content-Encoding, its own
// length, the same meaning), or refuses it with a JSON 415. Passing the compressed bytes on
// untranslated, or refusing them as bad JSON, is what breaks Codex-style clients on such a route.
import { defineCheck, fail, pass, type CheckContext, type Verdict } from '../../src/check/check.js';
import { messagesHeaders } from '../../src/client/gateway.js';
import { RECORDS } from '../../src/protocols/index.js';
import { messageBody } from '../../src/protocols/messages/index.js';
import { withToken } from '../../src/upstream/contract.js';
import { headerValues } from '../../src/upstream/record.js';
import { exchangeEvidence, excerpt } from '../shared/evidence.js';
import { REQUEST_CODINGS, remadeFramingProblem, type RequestCoding } from '../shared/encoded-request.js';
import { MESSAGES_PATH } from '../shared/protocols.js';
import { translation } from '../shared/route.js';
import { isJsonError, shapeOf } from '../shared/shape.js';
import { ON_TRANSLATED_ROUTE, requestDiffs, richBody, routeEvidence, seenMeaning } from './common.js';

/** One compressed request through the translated route: a failing verdict, or how it went. */
async function oneCoding(ctx: CheckContext, c: RequestCoding): Promise<{ verdict?: Verdict; how: string }> {
  const e = ctx.upstream.next().json(messageBody());
  const plain = Buffer.from(withToken(richBody(), e.token), 'utf8');
  const res = await ctx.gateway.send({ method: 'POST', path: MESSAGES_PATH, body: c.compress(plain), headers: [...messagesHeaders(), ['content-encoding', c.name]], caseToken: e.token, signal: ctx.signal });
  const seen = await e.received(res.status < 300 ? 1000 : 200);
  const evidence = { coding: c.name, ...routeEvidence(ctx, seen), ...exchangeEvidence({ res, seen }, 600) };
  if (!seen) {
    if (res.status === 415 && isJsonError(shapeOf(res))) return { how: `the ${c.name} request was refused with a JSON 415` };
    return { how: '', verdict: fail(`the ${c.name} request was neither forwarded nor refused with a JSON 415: the gateway answered ${res.status}${res.status === 400 ? ' (it read the compressed bytes as JSON)' : ''}`, { expected: 'the request decoded and forwarded translated, or a JSON 415', actual: `${res.status}: ${excerpt(res.text(), 200)}`, evidence }) };
  }
  const t = translation('messages', seen);
  const ce = headerValues(seen, 'content-encoding').join(', ');
  if (!t) return { how: '', verdict: fail(`the ${c.name} request reached the upstream untranslated, as messages${ce ? ` under content-encoding ${ce}` : ''}, on a route that forwards another protocol: the gateway passed on bytes it could not read`, { expected: 'the request decoded and forwarded in the route\'s protocol, or a JSON 415', actual: `${seen.method} ${seen.url.split('?')[0]}`, evidence }) };
  if (ce && !/^\s*identity\s*$/i.test(ce)) return { how: '', verdict: fail(`the translated ${c.name} request reached the upstream still labelled content-encoding ${ce}`, { expected: 'no Content-Encoding on the translated JSON', actual: ce, evidence }) };
  const framing = remadeFramingProblem(seen, `the translated ${c.name} request`);
  if (framing) return { how: '', verdict: fail(framing, { expected: 'a Content-Length that is the body\'s, or chunked alone', actual: headerValues(seen, 'content-length').join(', '), evidence }) };
  const meaning = seenMeaning(seen);
  const sent = RECORDS.messages.readRequest(MESSAGES_PATH, plain.toString('utf8'))!;
  if (!meaning) return { how: '', verdict: fail(`the ${c.name} request reached the ${t.to} path with a body that is not a ${t.to} request (a partial decode?)`, { expected: `a ${t.to} request`, actual: excerpt(seen.body.toString('utf8'), 200), evidence }) };
  const diffs = requestDiffs(sent, meaning, ctx.settings.modelRoutes);
  if (diffs.length) return { how: '', verdict: fail(`the ${c.name} request, decoded and translated ${t.from} → ${t.to}, lost or changed ${diffs.map((d) => d.field).join(', ')}`, { expected: diffs.map((d) => `${d.field}: ${JSON.stringify(d.sent)}`).join('\n'), actual: diffs.map((d) => `${d.field}: ${JSON.stringify(d.seen)}`).join('\n'), evidence }) };
  return { how: `the ${c.name} request was decoded and forwarded as ${t.to} with its meaning` };
}

export default defineCheck({
  id: 'translate.body.encoded',
  title: 'A compressed messages request (gzip, zstd) on a translated route is decoded and forwarded translated, or refused with a JSON 415',
  requirements: ['ENC-1'],
  ...ON_TRANSLATED_ROUTE,
  requirement:
    'On a route the gateway translates, a messages request whose body is compressed (`Content-Encoding: gzip`, then `zstd`) reaches the upstream decoded and translated: a request of the route\'s protocol with the same meaning (model, system, turns, tools, parameters), without Content-Encoding and with a length that is its own; or the gateway refuses it with a JSON 415 before forwarding. It never passes the compressed bytes on untranslated, refuses them as bad JSON, or forwards what a partial decode gave (ENC-1 on a translated route).',
  fix: 'Decode a compressed request body whole (gzip, and zstd: every frame) before translating it, then forward the translated JSON without `Content-Encoding` and with its own `Content-Length`; a route that cannot decode a coding answers 415 with a JSON error naming it. Never hand compressed bytes to the JSON parser, nor pass them on untranslated to an upstream of another protocol.',
  async run(ctx) {
    const hows: string[] = [];
    for (const c of REQUEST_CODINGS) {
      const r = await oneCoding(ctx, c);
      if (r.verdict) return r.verdict;
      hows.push(r.how);
    }
    return pass(hows.join('; '));
  },
});
