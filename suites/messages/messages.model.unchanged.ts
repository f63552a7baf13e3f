import { defineCheck, fail, pass } from '../../src/check/check.js';
import { at, toPlain } from '../../src/core/json.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange, notForwarded, parseSeen } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { translation } from '../shared/route.js';
import { RECORDS } from '../../src/protocols/index.js';

const MODELS = ['claude-sonnet-4-5-20250929', 'claude-opus-4-1-20250805', 'claude-opus-5-5'];

export default defineCheck({
  id: 'messages.model.unchanged',
  title: 'The model the client asks for is the model the upstream receives',
  requirements: ['MSG-MODEL-1'],
  level: 'MUST',
  protocol: 'messages',
  requirement: 'The upstream receives the requested model, unless the run declares a routing rule that maps it (config modelRoutes).',
  fix: 'Forward the model the client asked for. If the gateway maps models on purpose, declare the mapping to the harness (`--model-routes requested=routed`) so it is not counted as a substitution.',
  async run(ctx) {
    for (const model of MODELS) {
      const x = await exchange(ctx, messagesBody({ model }));
      if (!x.seen) return notForwarded(x);
      const seen = parseSeen(x);
      // Forwarded as another protocol, the model is where that protocol puts it (a Bedrock path).
      const to = translation('messages', x.seen)?.to;
      const got = to ? (RECORDS[to].readRequest(x.seen.url, x.seen.body.toString('utf8'))?.model ?? null) : seen ? toPlain(at(seen, '/model') ?? { t: 'null' }) : undefined;
      const allowed = ctx.settings.modelRoutes[model] ?? model;
      if (got !== allowed) return fail(`asked for ${model}, the upstream received ${JSON.stringify(got)}`, { expected: allowed, actual: String(got), evidence: exchangeEvidence(x) });
    }
    return pass(`the upstream received the requested models (${MODELS.join(', ')})`);
  },
});
