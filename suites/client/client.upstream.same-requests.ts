import { defineCheck } from '../../src/check/check.js';
import { compareRequests, PROXY_HEADERS, requestLines } from '../../src/real-clients/straight-vs-gateway.js';
import { verdictOver } from './common.js';

export default defineCheck({
  id: 'client.upstream.same-requests',
  title: "A real client's requests reach the upstream through the gateway as they do straight",
  requirements: ['CLIENT-1'],
  level: 'MUST',
  profile: 'client',
  requirement: `Each real client runs the same scripted session straight at the recording upstream and through the gateway; the upstream must receive the same requests in the same order: method, path and query, the body byte for byte (a body sent with a Content-Encoding, such as Codex CLI's zstd, compared decoded, its Content-Encoding compared as a header), every header and value except those a proxy legitimately changes (${PROXY_HEADERS.join(', ')}). The client's anthropic-beta values, its attribution block, model discovery with its query and any start-up probe are among them. Headers the client sends the gateway only (the targeting's, such as a provider header) are not compared.`,
  fix: 'Forward what the client sends as it sends it: path and query, body bytes and headers. The evidence names each request and header that changed, straight beside through the gateway, and the first differing byte of a body. Only `host`, `x-forwarded-*`, `forwarded`, `x-real-ip`, `via`, the connection headers and `content-length` may change; a gateway that answers a request itself (model list, token count) or swaps the credential shows as that.',
  async run(ctx) {
    return verdictOver(ctx, 'the requests', (p) => ({ differences: compareRequests(p.straight, p.gateway, p.bases, p.targeting), extra: { requests: { straight: p.straight.requests.length, gateway: p.gateway.requests.length }, sent: { straight: requestLines(p.straight), gateway: requestLines(p.gateway) } } }));
  },
});
