import { defineCheck, fail, pass } from '../../src/check/check.js';
import { headerValues } from '../../src/upstream/record.js';
import type { AuthStyle } from '../../src/client/gateway.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange, notForwarded } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';

export default defineCheck({
  id: 'messages.auth.credential',
  title: 'A request with Authorization: Bearer, and one with x-api-key, is accepted and forwarded with a credential',
  requirements: ['MSG-AUTH-1'],
  level: 'MUST',
  credential: true,
  protocol: 'messages',
  requirement: 'The messages credential (Bearer or x-api-key) is accepted, and the upstream receives a credential, the client\'s or the gateway\'s own.',
  fix: 'Accept both `Authorization: Bearer` and `x-api-key` on the messages protocol, and send a credential upstream (the client\'s or the gateway\'s own).',
  async run(ctx) {
    const reached: string[] = [];
    for (const auth of ['bearer', 'x-api-key'] as AuthStyle[]) {
      const x = await exchange(ctx, messagesBody({}), { auth });
      if (x.res.status >= 300) return fail(`a request with ${auth} was refused with ${x.res.status}`, { expected: '2xx', actual: String(x.res.status), evidence: exchangeEvidence(x) });
      if (!x.seen) return notForwarded(x);
      const cred = ['authorization', 'x-api-key'].filter((h) => headerValues(x.seen!, h).some((v) => v.trim().length > 0));
      if (!cred.length) return fail(`a request sent with ${auth} reached the upstream with no credential`, { expected: 'authorization or x-api-key at the upstream', actual: '(none)', evidence: exchangeEvidence(x) });
      reached.push(`${auth} -> ${cred.join('+')}`);
    }
    return pass(`accepted; credentials reaching the upstream: ${reached.join(', ')}`, { reached });
  },
});
