// Faults of the MCP endpoint (Streamable HTTP) and its OAuth discovery routes: what gateways and
// proxies in front of MCP servers are reported to do (a header allow-list without the MCP
// headers, an answer cache shared between clients, buffering, an empty 202 "fixed" into a 200, a
// GET refused with a page, the challenge rewritten, a body-size limit, routes left out).
import { PassThrough, Transform, type TransformCallback } from 'node:stream';
import { MCP_SESSION_HEADER, MCP_VERSION_HEADER } from '../../src/protocols/mcp/index.js';
import type { Fault, RequestParts } from './types.js';
import { answer, isOn } from './routes.js';
import { HoldAll, isEventStream } from './streaming.js';

const pathOf = (r: RequestParts) => r.path.split('?')[0];
const isEndpoint = (r: RequestParts) => isOn(r, 'mcp', 'rpc') && pathOf(r) === '/mcp';
const isDiscovery = (r: RequestParts) => isOn(r, 'mcp', 'rpc') && pathOf(r).startsWith('/.well-known/');
const without = (headers: Array<[string, string]>, name: string) => headers.filter(([k]) => k.toLowerCase() !== name);

/** Passes the first `max` bytes, then ends the answer (a body-size limit that truncates). */
class CutAfter extends Transform {
  private left: number;
  constructor(max: number) {
    super();
    this.left = max;
  }
  _transform(c: Buffer, _e: BufferEncoding, cb: TransformCallback) {
    if (this.left <= 0) return cb();
    const part = c.subarray(0, this.left);
    this.left -= part.length;
    cb(null, part);
  }
}

/** Drops the `id:` lines of an event stream (a proxy that rewrites events and keeps only data). */
class DropEventIds extends Transform {
  private rest = '';
  _transform(c: Buffer, _e: BufferEncoding, cb: TransformCallback) {
    const text = this.rest + c.toString('utf8');
    const cut = text.lastIndexOf('\n') + 1;
    this.rest = text.slice(cut);
    cb(null, text.slice(0, cut).replace(/^id:[^\n]*\n/gm, ''));
  }
  _flush(cb: TransformCallback) {
    cb(null, this.rest);
  }
}

/** A gateway whose answer cache is keyed without the client: it hands each client the session id the one before it got. */
function swapSessions(): Fault {
  let last: string | undefined;
  const fault: Fault = {
    name: 'mcp-swap-sessions',
    breaks: ['MCP-SESS-2'],
    description: "gives each client the Mcp-Session-Id of the initialize answered before its own (a cache shared between clients)",
    fresh: swapSessions,
    stream: (r, _status, headers) => {
      const own = isEndpoint(r) ? headers.find(([k]) => k.toLowerCase() === MCP_SESSION_HEADER)?.[1] : undefined;
      if (!own || !/"initialize"/.test(r.body.toString('utf8'))) return null;
      const given = last ?? own;
      last = own;
      return { headers: [...without(headers, MCP_SESSION_HEADER), [MCP_SESSION_HEADER, given]], transform: new PassThrough() };
    },
  };
  return fault;
}

export const MCP_FAULTS: Fault[] = [
  {
    name: 'mcp-path-slash',
    breaks: ['MCP-PATH-1'],
    description: 'forwards the endpoint /mcp to /mcp/ (a location that adds a trailing slash)',
    request: (r) => void (isEndpoint(r) && (r.path = r.path.replace(/^\/mcp(?=\?|$)/, '/mcp/'))),
  },
  {
    name: 'mcp-drop-session',
    breaks: ['MCP-SESS-1'],
    description: 'drops the Mcp-Session-Id request header (a header allow-list without it)',
    request: (r) => void (isEndpoint(r) && (r.headers = without(r.headers, MCP_SESSION_HEADER))),
  },
  swapSessions(),
  {
    name: 'mcp-strip-version',
    breaks: ['MCP-HDR-1'],
    description: 'drops the MCP-Protocol-Version request header',
    request: (r) => void (isEndpoint(r) && (r.headers = without(r.headers, MCP_VERSION_HEADER))),
  },
  {
    name: 'mcp-drop-event-ids',
    breaks: ['MCP-ANS-1'],
    description: "drops the id: lines of the endpoint's event streams (events re-written with their data only)",
    stream: (r, _status, headers) => (isEndpoint(r) && isEventStream(headers) ? { headers, transform: new DropEventIds() } : null),
  },
  {
    name: 'mcp-buffer-stream',
    breaks: ['MCP-STREAM-1'],
    description: "holds the event stream answering a POST to the endpoint until the server ends it, then sends it whole",
    stream: (r, _status, headers) => (isEndpoint(r) && r.method === 'POST' && isEventStream(headers) ? { headers, transform: new HoldAll() } : null),
  },
  {
    name: 'mcp-202-as-200',
    breaks: ['MCP-NOTE-1'],
    description: 'turns the empty 202 a notification gets into a 200 with a JSON body of its own',
    responseWhen: (r, status) => isEndpoint(r) && status === 202,
    response: () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"status":"accepted"}') }),
  },
  {
    name: 'mcp-refuse-get',
    breaks: ['MCP-GET-1'],
    description: 'refuses GET on the endpoint with an HTML 405 page (a gateway that routes only POST for MCP)',
    intercept: (r, res) => isEndpoint(r) && r.method === 'GET' && answer(res, 405, 'text/html', '<html><body><h1>405 Not Allowed</h1></body></html>'),
  },
  {
    name: 'mcp-refuse-delete',
    breaks: ['MCP-DEL-1'],
    description: 'answers DELETE on the endpoint 200 itself, never forwarding it (the session stays open at the server)',
    intercept: (r, res) => isEndpoint(r) && r.method === 'DELETE' && answer(res, 200, 'application/json', '{}'),
  },
  {
    name: 'mcp-404-as-502',
    breaks: ['MCP-EXP-1'],
    description: "turns the server's 404 on the endpoint (an expired session) into a 502 of its own",
    responseWhen: (r, status) => isEndpoint(r) && status === 404,
    response: () => ({ status: 502, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"error":{"type":"api_error","message":"upstream error"}}') }),
  },
  {
    name: 'mcp-clamp-ids',
    breaks: ['MCP-RPC-1'],
    description: 'clamps a JSON-RPC id past 2^31 - 1 to 2147483647 (ids kept as 32-bit integers)',
    request: (r) => {
      if (!isEndpoint(r) || r.method !== 'POST') return;
      const m = JSON.parse(r.body.toString('utf8')) as { id?: unknown };
      if (typeof m.id === 'number' && m.id > 2147483647) r.body = Buffer.from(JSON.stringify({ ...m, id: 2147483647 }));
    },
  },
  {
    name: 'mcp-cut-large',
    breaks: ['MCP-RPC-2'],
    description: "cuts the endpoint's answers after 1 MiB (a response body limit that truncates)",
    stream: (r, _status, headers) => (isEndpoint(r) ? { headers: without(headers, 'content-length'), transform: new CutAfter(1024 * 1024) } : null),
  },
  {
    name: 'mcp-rewrite-challenge',
    breaks: ['MCP-AUTH-1'],
    description: "replaces the server's WWW-Authenticate challenge on a 401 with one of its own (Bearer realm, no resource_metadata)",
    stream: (r, status, headers) => (isEndpoint(r) && status === 401 ? { headers: [...without(headers, 'www-authenticate'), ['www-authenticate', 'Bearer realm="gateway"']], transform: new PassThrough() } : null),
  },
  {
    name: 'mcp-no-discovery',
    breaks: ['MCP-AUTH-2'],
    description: 'answers the OAuth discovery routes (/.well-known/oauth-*) 404 itself (only the endpoint is routed)',
    intercept: (r, res) => isDiscovery(r) && answer(res, 404, 'application/json', '{"error":"not_found"}'),
  },
];
