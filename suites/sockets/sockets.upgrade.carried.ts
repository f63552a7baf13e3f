// WS-UP-1: a WebSocket route's upgrade is carried to the upstream with its headers (the beta
// header, the credential, the offered subprotocol), and the socket opens with the subprotocol the upstream chose.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { endSocket, noSocketUpstream, openRoute, servedRoutes, socketEvidence, type Opened } from './common.js';

/** The subprotocol offered beside the route's own: the upstream chooses it. */
const SUBPROTOCOL = 'gwc.test.v1';

/** What of the upgrade did not arrive as the client sent it; empty when it all did. */
function lost(x: Opened, credentialSent: boolean): string[] {
  const up = x.c.sockets[0];
  if (!up) return [];
  const has = (name: string) => up.headers.filter(([k]) => k.toLowerCase() === name).map(([, v]) => v);
  const out: string[] = [];
  for (const [k, v] of x.route.headers) if (!has(k).some((got) => got.split(',').map((s) => s.trim()).includes(v))) out.push(`the ${k} header (${v}) ${has(k).length ? `arrived as ${has(k).join(', ')}` : 'was dropped'}`);
  if (credentialSent && x.route.credential === 'key-query' && !/[?&]key=[^&]+/.test(up.url) && !has('x-goog-api-key').length) out.push('the credential (the `key` query parameter) was dropped');
  if (credentialSent && x.route.credential === 'bearer' && !has('authorization').length) out.push('the credential (Authorization) was dropped');
  if (!up.subprotocols.includes(SUBPROTOCOL)) out.push(`the offered subprotocol ${SUBPROTOCOL} ${up.subprotocols.length ? `arrived as ${up.subprotocols.join(', ')}` : 'was dropped'}`);
  else if (x.o.kind === 'open' && x.o.socket.protocol !== SUBPROTOCOL) out.push(`the upstream chose ${SUBPROTOCOL} but the client's socket opened with ${x.o.socket.protocol || 'none'}`);
  return out;
}

export default defineCheck({
  id: 'sockets.upgrade.carried',
  title: 'A WebSocket upgrade reaches the upstream with its beta header, credential and subprotocol',
  requirements: ['WS-UP-1'],
  level: 'MUST',
  requirement: 'The upgrade of each WebSocket route the gateway serves reaches the upstream as an upgrade, with the route\'s beta header, the credential and the offered subprotocols, and the client\'s socket opens with the subprotocol the upstream chose.',
  fix: 'Carry the upgrade: in nginx, `proxy_http_version 1.1;`, `proxy_set_header Upgrade $http_upgrade;` and `proxy_set_header Connection $connection_upgrade;` (with a `map $http_upgrade $connection_upgrade`) in the locations of `/v1/responses`, `/v1/realtime` and `BidiGenerateContent`; forward `OpenAI-Beta`, the credential and `Sec-WebSocket-Protocol` unchanged. A gateway that does not serve a route says so with `--websockets`.',
  async run(ctx) {
    if (!ctx.upstream.speaksSockets) return noSocketUpstream();
    const routes = servedRoutes(ctx);
    if (!routes.length) return { ok: false, skip: true, message: 'not applicable: the gateway serves no WebSocket route (--websockets none); sockets.upgrade.refusal judges its refusals' };
    const credentialSent = ctx.gateway.credentialHeaders('bearer').length > 0;
    const seen: Opened[] = [];
    try {
      for (const name of routes) {
        const x = await openRoute(ctx, { route: name, protocol: SUBPROTOCOL }, { protocols: [SUBPROTOCOL] });
        seen.push(x);
        const arrived = await x.c.arrived(1000);
        if (arrived === 'plain') return fail(`${name}: the upgrade reached the upstream as a plain ${x.c.plain[0].method} without Upgrade: the gateway stripped the upgrade headers, and the client got ${x.o.kind === 'refused' ? x.o.status : x.o.kind}`, { expected: 'an upgrade at the upstream', actual: 'a plain request', evidence: socketEvidence(x) });
        if (x.o.kind !== 'open' || !arrived) {
          const how = x.o.kind === 'refused' ? `answered the upgrade ${x.o.status} after ${x.o.ms} ms` : x.o.kind === 'failed' ? `failed the upgrade after ${x.o.ms} ms: ${x.o.error}` : 'opened the socket';
          return fail(`${name}: the gateway ${how}${arrived ? '' : ', and nothing reached the upstream'}: the upgrade was not carried`, { expected: '101 Switching Protocols, the upgrade at the upstream', actual: x.o.kind === 'refused' ? String(x.o.status) : x.o.kind, evidence: socketEvidence(x) });
        }
        const gone = lost(x, credentialSent);
        if (gone.length) return fail(`${name}: ${gone.join('; ')}`, { expected: 'the upgrade\'s headers as sent', actual: gone.join('; '), evidence: socketEvidence(x) });
        // Judged: the socket is not needed any more (a gateway that floods it costs nothing more).
        endSocket(x);
      }
      return pass(`carried the upgrade of ${routes.join(', ')} with ${credentialSent ? 'the credential, ' : ''}the beta header and the subprotocol`, { routes: seen.map((x) => socketEvidence(x)) });
    } finally {
      seen.forEach(endSocket);
    }
  },
});
