import { defineCheck, fail, pass } from '../../src/check/check.js';
import { maskHeaders } from '../../src/core/mask.js';
import { initializeBody, MCP_PATH, mcpHeaders, PROTECTED_RESOURCE_PATH } from '../../src/protocols/mcp/index.js';
import { cut, upstreamEvidence } from '../shared/evidence.js';

/** The server's answer to a client without a token: invalid_token, as an OAuth-protected MCP server gives it. */
const BODY = JSON.stringify({ error: 'invalid_token', error_description: 'Missing or invalid access token' });

export default defineCheck({
  id: 'mcp.auth.challenge',
  title: "The MCP server's 401 and its WWW-Authenticate Bearer challenge (resource_metadata) reach the client as sent",
  requirements: ['MCP-AUTH-1'],
  level: 'MUST',
  protocol: 'mcp',
  requirement: "When the MCP server refuses a request 401 with a Bearer challenge naming its protected-resource metadata (WWW-Authenticate: Bearer resource_metadata=\"...\"), the client gets the 401 with that challenge unchanged, so it can discover where to authorize.",
  fix: 'Pass the server\'s `401` and its `WWW-Authenticate` header through unchanged on the MCP endpoint; a gateway that authenticates clients itself must answer with a challenge of its own whose `resource_metadata` it serves.',
  async run(ctx) {
    const challenge = `Bearer resource_metadata="${ctx.upstream.url}${PROTECTED_RESOURCE_PATH}${MCP_PATH}", scope="mcp:tools"`;
    const e = ctx.upstream.next().json(BODY, { status: 401, headers: [['www-authenticate', challenge]] });
    const res = await ctx.gateway.send({ method: 'POST', path: MCP_PATH, headers: mcpHeaders({ version: null }), body: initializeBody(e.token), caseToken: e.token, signal: ctx.signal });
    const seen = await e.received(1000);
    const got = res.rawHeaders.filter(([k]) => k.toLowerCase() === 'www-authenticate').map(([, v]) => v);
    const evidence = { client: { status: res.status, headers: maskHeaders(res.rawHeaders), body: cut(res.text(), 600) }, upstream: upstreamEvidence(seen, 600) };
    if (!seen) return fail(`the request never reached the upstream (the gateway answered ${res.status})`, { evidence });
    if (res.status !== 401) return fail(`the server answered 401; the client got ${res.status}`, { expected: '401', actual: String(res.status), evidence });
    if (got.length !== 1 || got[0] !== challenge) return fail(got.length ? `the challenge reached the client as ${got.join(' | ')}` : 'the 401 reached the client without its WWW-Authenticate challenge', { expected: challenge, actual: got.join(' | ') || 'no header', evidence });
    return pass('the 401 and its Bearer challenge with resource_metadata reached the client unchanged', evidence);
  },
});
