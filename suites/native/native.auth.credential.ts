import { defineCheck, fail, pass } from '../../src/check/check.js';
import type { AuthStyle } from '../../src/client/gateway.js';
import { exchange, nativeSend, notForwarded } from '../shared/exchange.js';
import { credentialsAt, nativeBody } from '../shared/protocols.js';
import { exchangeEvidence } from '../shared/evidence.js';

const STYLES: Array<[AuthStyle, string]> = [
  ['x-goog-api-key', 'x-goog-api-key header'],
  ['key-query', '?key= query'],
];

export default defineCheck({
  id: 'native.auth.credential',
  title: 'A native request with x-goog-api-key, and one with ?key=, is accepted and reaches the upstream with a credential',
  requirements: ['NAT-AUTH-1'],
  level: 'MUST',
  credential: true,
  protocol: 'native',
  requirement: "The native credential (the x-goog-api-key header, or the ?key= query) is accepted, and the forwarded request carries a credential, the client's or the gateway's own; the check reports which one arrived, never its value.",
  fix: 'Accept both `x-goog-api-key` and `?key=` on the native protocol and send a credential upstream.',
  async run(ctx) {
    const reached: string[] = [];
    for (const [auth, label] of STYLES) {
      const x = await exchange(ctx, nativeBody(), nativeSend({ auth }));
      if (x.res.status >= 300) return fail(`a native request with the ${label} was refused with ${x.res.status}`, { expected: '2xx', actual: String(x.res.status), evidence: exchangeEvidence(x) });
      if (!x.seen) return notForwarded(x);
      const creds = credentialsAt(ctx, x.seen);
      if (!creds.length)
        return fail(`a native request sent with the ${label} reached the upstream with no credential`, { expected: 'x-goog-api-key, ?key= or authorization at the upstream', actual: '(none)', evidence: { sentWith: label, ...exchangeEvidence(x) } });
      reached.push(`${label} -> ${creds.join(' + ')}`);
    }
    return pass(`accepted; credentials reaching the upstream: ${reached.join('; ')}`, { reached });
  },
});
