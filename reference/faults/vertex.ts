// Faults of the Vertex rawPredict routes: what gateways that carry `/v1/messages` well still do to
// Anthropic's Vertex paths (a model id "normalised", a colon encoded, a stream sent to the plain
// method, a body "normalised" into the messages shape, an allow-list of headers, a buffered
// stream, a missing count route, an error page).
import type { Fault, RequestParts } from './types.js';
import { answer, isOn } from './routes.js';
import { HoldAll, onStreams, PerFrame } from './streaming.js';

const isVertex = (r: RequestParts) => isOn(r, 'vertex', 'generate', 'stream', 'count');
const MODEL_SEGMENT = /^(\/v1\/projects\/[^/]+\/locations\/[^/]+\/publishers\/anthropic\/models\/)([^/:?]+)(:[A-Za-z]+)/;

export const VERTEX_FAULTS: Fault[] = [
  {
    name: 'vertex-model-at-to-dash',
    breaks: ['VTX-PATH-1'],
    description: 'rewrites the "@" of a Vertex model id to "-" (claude-sonnet-4-5@20250929 becomes the messages protocol\'s claude-sonnet-4-5-20250929)',
    request: (r) => {
      if (isVertex(r)) r.path = r.path.replace(MODEL_SEGMENT, (_m, base: string, model: string, method: string) => `${base}${model.replace('@', '-')}${method}`);
    },
  },
  {
    name: 'vertex-encode-colon',
    breaks: ['VTX-PATH-1'],
    description: 'percent-encodes the ":" before rawPredict and streamRawPredict as %3A (a path-segment encoder)',
    request: (r) => {
      if (isVertex(r)) r.path = r.path.replace(MODEL_SEGMENT, (_m, base: string, model: string, method: string) => `${base}${model}%3A${method.slice(1)}`);
    },
  },
  {
    name: 'vertex-stream-as-raw',
    breaks: ['VTX-PATH-1'],
    description: 'forwards :streamRawPredict to :rawPredict (a gateway that knows one Vertex method)',
    request: (r) => {
      if (isOn(r, 'vertex', 'stream')) r.path = r.path.replace(':streamRawPredict', ':rawPredict');
    },
  },
  {
    name: 'vertex-add-model',
    breaks: ['VTX-BODY-1'],
    description: 'adds a "model" field (from the path) to a rawPredict body, normalising it into the messages protocol\'s shape',
    request: (r) => {
      if (!isOn(r, 'vertex', 'generate', 'stream')) return;
      const model = MODEL_SEGMENT.exec(r.path)?.[2] ?? '';
      r.body = Buffer.from(JSON.stringify({ model, ...JSON.parse(r.body.toString('utf8')) }));
    },
  },
  {
    name: 'vertex-strip-beta',
    breaks: ['VTX-HDR-1'],
    description: 'drops anthropic-beta on the Vertex routes (a header allow-list written for Google\'s APIs)',
    request: (r) => {
      if (isVertex(r)) r.headers = r.headers.filter(([k]) => k.toLowerCase() !== 'anthropic-beta');
    },
  },
  {
    name: 'vertex-buffer-stream',
    breaks: ['VTX-SSE-1'],
    description: 'holds a :streamRawPredict answer until the upstream has ended it, then sends it whole',
    stream: (r, status, headers) => (isOn(r, 'vertex', 'stream') ? (onStreams(() => new HoldAll())?.(r, status, headers) ?? null) : null),
  },
  {
    name: 'vertex-drop-message-stop',
    breaks: ['VTX-SSE-2'],
    description: 'drops the message_stop event of a :streamRawPredict answer (a stream rebuilt from the events it knows)',
    stream: (r, status, headers) => (isOn(r, 'vertex', 'stream') ? (onStreams(() => new PerFrame((f) => (/^event: message_stop\r?$/m.test(f) ? '' : f)))?.(r, status, headers) ?? null) : null),
  },
  {
    name: 'vertex-count-tokens-404',
    breaks: ['VTX-COUNT-1'],
    description: 'has no route for count-tokens:rawPredict and answers a JSON 404 itself',
    intercept: (r, res) => {
      if (!isOn(r, 'vertex', 'count')) return false;
      return answer(res, 404, 'application/json', JSON.stringify({ error: { code: 404, message: `no route for ${r.path}`, status: 'NOT_FOUND' } }));
    },
  },
  {
    name: 'vertex-error-html-502',
    breaks: ['VTX-ERR-1'],
    description: 'answers every upstream error of a Vertex route with its own HTML 502 page',
    responseWhen: (r, status) => isVertex(r) && (status === undefined || status >= 400),
    response: (status) =>
      status >= 400 ? { status: 502, headers: { 'content-type': 'text/html' }, body: Buffer.from('<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n') } : null,
  },
];
