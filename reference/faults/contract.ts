// Faults where the real apps gateway's contract (GET /protocol) and the letter of the interface
// part: each is what the real client handles, judged one way by default and failed under
// --strict (a JSON 404 from discovery, a failover to the next model of a declared chain on a
// model-not-found 404), or what neither allows (an unsupported count_tokens turned into a 500).
import type { Fault, RequestParts } from './types.js';
import { answer } from './routes.js';

const isDiscovery = (r: RequestParts) => r.method === 'GET' && /^\/v1\/models(\?|$)/.test(r.path);
const isCountTokens = (r: RequestParts) => /^\/v1\/messages\/count_tokens(\?|$)/.test(r.path);
const isMessages = (r: RequestParts) => /^\/v1\/messages(\?|$)/.test(r.path);
const json = (v: unknown) => Buffer.from(JSON.stringify(v));

/** The model of a failover chain that follows `model` (the chain: the model itself, then its -fallback-N names). */
export function nextInChain(model: string): string {
  const m = /^(.*)-fallback-(\d+)$/.exec(model);
  return m ? `${m[1]}-fallback-${Number(m[2]) + 1}` : `${model}-fallback-1`;
}

/** A request body with its model moved one step along the failover chain. */
function failover(r: RequestParts): void {
  try {
    const body = JSON.parse(r.body.toString('utf8')) as { model?: unknown };
    if (typeof body.model === 'string') r.body = json({ ...body, model: nextInChain(body.model) });
  } catch {
    // Not JSON: sent again as it was.
  }
}

export const CONTRACT_FAULTS: Fault[] = [
  {
    name: 'discovery-not-offered',
    breaks: ['DISC-1'],
    description: 'offers no model discovery: GET /v1/models answers a JSON 404 (the client falls back to its built-in list; a failure only under --strict)',
    intercept: (r, res) => isDiscovery(r) && answer(res, 404, 'application/json', json({ type: 'error', error: { type: 'not_found_error', message: 'model discovery is not offered by this gateway' } })),
  },
  {
    name: 'count-tokens-unsupported-as-500',
    breaks: ['MSG-CT-2'],
    description: "answers an upstream's 501 not_supported on count_tokens with a 500 api_error: the client cannot tell it from an outage and does not fall back to counting on its own",
    responseWhen: (r, status) => isCountTokens(r) && status === 501,
    response: () => {
      const body = json({ type: 'error', error: { type: 'api_error', message: 'upstream error' } });
      return { status: 500, headers: { 'content-type': 'application/json' }, body };
    },
  },
  {
    name: 'model-404-fails-over',
    breaks: ['ERR-RETRY-2'],
    description: 'on a model-not-found 404 sends the request once more with the next model of a failover chain (`-fallback-1`): allowed with --failover-chain 1 or more, failed without the declaration and under --strict',
    retry: { status: 404, times: 1, rewrite: (r) => isMessages(r) && failover(r) },
  },
];
