import { defineCheck, fail, pass } from '../../src/check/check.js';
import { maskUrl } from '../../src/core/mask.js';
import { countTokensBody } from '../../src/protocols/messages/index.js';
import { vertexJsonReply } from '../../src/protocols/vertex/index.js';
import { exchange, notForwarded, responseDiffs } from '../shared/exchange.js';
import { exchangeEvidence, excerpt } from '../shared/evidence.js';
import { VERTEX_MODEL, vertexSend, wantPath, vertexBody, vertexCountPath } from './common.js';

/** A count no estimate would land on by chance. */
const REAL_COUNT = 2187;

export default defineCheck({
  id: 'vertex.count-tokens.passthrough',
  title: 'POST .../models/count-tokens:rawPredict (the model in the body) is forwarded unchanged and answered with the upstream\'s count',
  requirements: ['VTX-COUNT-1'],
  level: 'MUST',
  untranslatable: 'the path and body as the client sent them',
  protocol: 'vertex',
  requirement: "A Vertex token count (POST .../publishers/anthropic/models/count-tokens:rawPredict, its body naming the model) reaches the upstream at that path with its body unchanged, and the upstream's count reaches the client unchanged.",
  fix: 'Route `POST .../publishers/anthropic/models/count-tokens:rawPredict` like the other Vertex methods: forward it with its body (which names the model) and pass the count back.',
  async run(ctx) {
    const body = vertexBody({ model: VERTEX_MODEL, system: 'You are a careful assistant.' });
    const x = await exchange(ctx, body, vertexSend({ count: true, reply: vertexJsonReply(countTokensBody(REAL_COUNT)) }));
    const ev = exchangeEvidence(x);
    if (!x.seen) return notForwarded(x);
    const want = wantPath(ctx, vertexCountPath());
    if (x.seen.url !== want) return fail(`the count arrived at ${maskUrl(x.seen.url)}`, { expected: want, actual: maskUrl(x.seen.url), evidence: ev });
    if (x.seen.body.toString('utf8') !== x.sent) return fail('the count\'s body changed on the way (its model and anthropic_version must arrive as sent)', { expected: x.sent, actual: x.seen.body.toString('utf8'), evidence: ev });
    if (x.res.status !== 200) return fail(`the client got ${x.res.status} where the upstream counted ${REAL_COUNT}`, { expected: `200 ${countTokensBody(REAL_COUNT)}`, actual: `${x.res.status} ${excerpt(x.res.text(), 200)}`, evidence: ev });
    const { diffs, parseError } = responseDiffs(x);
    if (parseError || diffs.length) return fail(`the count reached the client changed: ${parseError ?? JSON.stringify(diffs[0])}`, { expected: countTokensBody(REAL_COUNT), actual: excerpt(x.res.text(), 200), evidence: ev });
    return pass(`count-tokens:rawPredict was forwarded unchanged and answered ${REAL_COUNT}`);
  },
});
