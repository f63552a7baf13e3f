import { defineCheck, pass } from '../../src/check/check.js';
import { errorBody } from '../../src/protocols/messages/index.js';
import { vertexGatewayError, vertexJsonReply } from '../../src/protocols/vertex/index.js';
import { errorsPassedThrough } from '../shared/error-passthrough.js';
import { exchange } from '../shared/exchange.js';
import { vertexSend, vertexBody } from './common.js';

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
  untranslatable: "the upstream's error body, field for field",
  protocol: 'vertex',
  requirement: "An error of a Vertex upstream reaches the client with its HTTP status and its JSON body unchanged: the model's errors in Anthropic's shape ({\"type\":\"error\",\"error\":{...}}) and the front end's in Google's ({\"error\":{\"code\",\"message\",\"status\"}}).",
  fix: 'Pass the upstream\'s error status and JSON body on unchanged, both the model\'s errors (Anthropic\'s `{"type":"error",...}`) and Google\'s (`{"error":{"code","message","status"}}`); no HTML error page (nginx: no `proxy_intercept_errors on;`), no 502 in place of a 4xx or a 429.',
  async run(ctx) {
    // A case's name says which body it is (Anthropic's or Google's): a changed one is named by it alone.
    const failed = await errorsPassedThrough({ cases: CASES, send: (c) => exchange(ctx, vertexBody(), vertexSend({ reply: vertexJsonReply(c.body(), c.status) })), changed: (c) => c.name });
    return failed ?? pass(`all ${CASES.length} Vertex errors reached the client with their status and JSON body`);
  },
});
