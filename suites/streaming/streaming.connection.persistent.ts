import { defineCheck, fail, pass } from '../../src/check/check.js';
import { frames, messageStream } from '../../src/protocols/messages/index.js';
import { singleConnection } from '../../src/client/sse.js';
import { isStop, notStreamed, streamEvidence, streamExchange } from './common.js';


export default defineCheck({
  id: 'streaming.connection.persistent',
  title: 'Three streams sent one after another on one client connection all complete on that connection',
  requirements: ['SSE-CONN-1'],
  level: 'SHOULD',
  protocol: 'messages',
  requirement: 'Several requests work on one persistent client connection.',
  fix: 'Support keep-alive on client connections: answer with a correct length or chunked framing and do not close the connection after each stream.',
  async run(ctx) {
    const { client, connects } = singleConnection(ctx.gateway);
    try {
      for (let i = 0; i < 3; i++) {
        const x = await streamExchange(ctx, frames(messageStream({ full: false, textDeltas: 2 })), { dispatcher: client });
        if (x.res.status !== 200 || !x.seen || x.res.error) return notStreamed(x);
        if (!isStop(x.res.events.at(-1))) return fail(`stream ${i + 1} did not complete`, { evidence: streamEvidence(x) });
      }
      const n = connects();
      if (n > 1) return fail(`the gateway closed the connection between requests: 3 streams needed ${n} connections`, { expected: '1 connection', actual: `${n} connections` });
      return pass('3 streams completed on one connection');
    } finally {
      await client.close();
    }
  },
});
