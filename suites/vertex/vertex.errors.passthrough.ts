import { defineCheck, fail, pass } from '../../src/check/check.js';
import { describeDiff } from '../../src/core/compare.js';
import { tryParse } from '../../src/core/json.js';
import { errorBody } from '../../src/upstream/replies/messages.js';
import { vertexGatewayError, vertexJsonReply } from '../../src/upstream/replies/vertex.js';
import { exchange, responseDiffs } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { vertexBody } from '../shared/protocols.js';
import { vertexSend } from './common.js';

// The model's errors (Anthropic's body, passed on by Vertex) and the front end's own (Google's shape).
const CASES: Array<{ status: number; name: string; body: () => string }> = [
  ...[400, 429, 500, 529].map((status) => ({ status, name: `${status} ${JSON.parse(errorBody(status)).error.type} (Anthropic's body)`, body: () => errorBody(status) })),
  ...[403, 404, 429].map((status) => ({ status, name: `${status} ${JSON.parse(vertexGatewayError(status)).error.status} (Google's shape)`, body: () => vertexGatewayError(status) })),
];

export default defineCheck({
  id: 'vertex.errors.passthrough',
  title: "Vertex errors (Anthropic's 400, 429, 500, 529; Google's 403, 404, 429) reach the client with their status and JSON body",
  requirements: ['VTX-ERR-1'],
  level: 'MUST',
  area: 'vertex',
  profile: 'default',
  untranslatable: "the upstream's error body, field for field",
  protocol: 'vertex',
  requirement: "An error of a Vertex upstream reaches the client with its HTTP status and its JSON body unchanged: the model's errors in Anthropic's shape ({\"type\":\"error\",\"error\":{...}}) and the front end's in Google's ({\"error\":{\"code\",\"message\",\"status\"}}).",
  async run(ctx) {
    for (const c of CASES) {
      const x = await exchange(ctx, vertexBody(), vertexSend({ reply: vertexJsonReply(c.body(), c.status) }));
      const ev = exchangeEvidence(x);
      const got = tryParse(x.res.text());
      if (x.res.status !== c.status || !got.ok) {
        const html = /<html|<!doctype/i.test(x.res.text());
        return fail(`the upstream's ${c.name} reached the client as ${x.res.status}${!got.ok ? (html ? ' with an HTML page' : ' with a body that is not JSON') : ''}`, {
          expected: `${c.status} with the upstream's JSON error`,
          actual: `${x.res.status} ${x.res.header('content-type') ?? ''}: ${x.res.text().slice(0, 200)}`,
          evidence: ev,
        });
      }
      const { diffs } = responseDiffs(x);
      if (diffs.length) return fail(`the upstream's ${c.name} changed on the way: ${describeDiff(diffs[0])}`, { expected: "the upstream's error body", actual: diffs.map(describeDiff).join('\n'), evidence: { diffs, ...ev } });
    }
    return pass(`all ${CASES.length} Vertex errors reached the client with their status and JSON body`);
  },
});
