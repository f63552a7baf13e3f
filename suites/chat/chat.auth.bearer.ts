import { defineCheck, fail, pass } from '../../src/check/check.js';
import { chatCompletion, chatJsonReply } from '../../src/protocols/chat/index.js';
import { chatSend, exchange, notForwarded } from '../shared/exchange.js';
import { chatBody, credentialsAt } from '../shared/protocols.js';
import { exchangeEvidence } from '../shared/evidence.js';

export default defineCheck({
  id: 'chat.auth.bearer',
  title: 'A chat request with Authorization: Bearer is accepted and reaches the upstream with a credential',
  requirements: ['CHAT-AUTH-1'],
  level: 'MUST',
  credential: true,
  protocol: 'chat',
  requirement: "`Authorization: Bearer <service key>` is accepted on the chat-completions endpoint and the forwarded request carries a credential, the client's or the gateway's own; the check reports which one arrived, never its value.",
  fix: 'Accept `Authorization: Bearer` on chat completions and send a credential upstream.',
  async run(ctx) {
    const x = await exchange(ctx, chatBody(), chatSend({ reply: chatJsonReply(chatCompletion()) }));
    if (x.res.status >= 300) return fail(`a chat request with a Bearer credential was refused with ${x.res.status}`, { expected: '2xx', actual: String(x.res.status), evidence: exchangeEvidence(x) });
    if (!x.seen) return notForwarded(x);
    const creds = credentialsAt(ctx, x.seen);
    if (!creds.length) return fail('the chat request reached the upstream with no credential', { expected: 'authorization (or another credential) at the upstream', actual: '(none)', evidence: exchangeEvidence(x) });
    return pass(`accepted; credential reaching the upstream: ${creds.join(' + ')}`, { reached: creds });
  },
});
