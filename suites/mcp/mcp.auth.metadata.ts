import { defineCheck, fail, pass } from '../../src/check/check.js';
import { maskHeaders } from '../../src/core/mask.js';
import { AUTH_SERVER_PATH, MCP_PATH, PROTECTED_RESOURCE_PATH } from '../../src/protocols/mcp/index.js';
import { cut, upstreamEvidence } from '../shared/evidence.js';

const ISSUER = 'https://auth.gwc.example';

export default defineCheck({
  id: 'mcp.auth.metadata',
  title: 'GET /.well-known/oauth-protected-resource/mcp and /.well-known/oauth-authorization-server reach the server and their documents the client',
  requirements: ['MCP-AUTH-2'],
  level: 'MUST',
  protocol: 'mcp',
  requirement: "The OAuth discovery routes beside the MCP endpoint (the protected-resource metadata, /.well-known/oauth-protected-resource with the endpoint's path after it, and the authorization server's metadata, /.well-known/oauth-authorization-server) are routed to the server, and its JSON documents reach the client unchanged.",
  fix: 'Route `/.well-known/oauth-protected-resource` (and the path under it) and `/.well-known/oauth-authorization-server` to the MCP server like the endpoint, or serve documents of the gateway\'s own that agree with its challenge; an MCP client cannot authorize without them.',
  async run(ctx) {
    const docs: Array<[string, string]> = [
      [`${PROTECTED_RESOURCE_PATH}${MCP_PATH}`, JSON.stringify({ resource: `${ctx.upstream.url}${MCP_PATH}`, authorization_servers: [ISSUER], scopes_supported: ['mcp:tools'], bearer_methods_supported: ['header'] })],
      [AUTH_SERVER_PATH, JSON.stringify({ issuer: ISSUER, authorization_endpoint: `${ISSUER}/authorize`, token_endpoint: `${ISSUER}/token`, response_types_supported: ['code'], code_challenge_methods_supported: ['S256'] })],
    ];
    for (const [path, body] of docs) {
      const e = ctx.upstream.next().json(body, { headers: [['cache-control', 'max-age=3600']] });
      const res = await ctx.gateway.send({ method: 'GET', path, caseToken: e.token, signal: ctx.signal });
      const seen = await e.received(1000);
      const evidence = { client: { status: res.status, headers: maskHeaders(res.rawHeaders), body: cut(res.text(), 600) }, upstream: upstreamEvidence(seen, 600) };
      if (!seen) return fail(`GET ${path} never reached the upstream (the gateway answered ${res.status})`, { evidence });
      if (res.status !== 200 || res.text() !== body) return fail(`GET ${path}: the server's JSON document reached the client as ${res.status}${res.status === 200 ? ' with another body' : ''}`, { expected: body, actual: cut(res.text(), 300), evidence });
    }
    return pass(`both discovery documents (${docs.map(([p]) => p).join(', ')}) reached the client unchanged`);
  },
});
