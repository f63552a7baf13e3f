import { defineCheck, fail, pass } from '../../src/check/check.js';
import { RECORDS } from '../../src/protocols/index.js';
import { exchange, notForwarded } from '../shared/exchange.js';
import { exchangeEvidence, excerpt } from '../shared/evidence.js';
import { notTranslated, translation } from '../shared/route.js';
import { requestDiffs, richBody, routeEvidence, seenMeaning, ON_TRANSLATED_ROUTE } from './common.js';

export default defineCheck({
  id: 'translate.request.meaning',
  title: 'A messages request forwarded as another protocol keeps its model, system, turns, tools and parameters',
  requirements: ['XLATE-REQ-1'],
  ...ON_TRANSLATED_ROUTE,
  requirement:
    'When the gateway forwards a request of one protocol upstream as another, the request keeps its meaning: the same model unless a model route is declared, the system text and the turns in order, the tool calls of the history, the tools offered, and the parameters every protocol has (output limit, temperature, top_p, stop sequences) with their values.',
  fix: 'Map every part of the request to the upstream protocol: the system text (all its blocks), every turn in order (tool results as the other protocol\'s tool messages), tool calls with their arguments, the tools offered, and output limit, temperature, top_p and stop sequences. Keep the client\'s model unless a route to another is configured (declare it with `--model-route`).',
  async run(ctx) {
    const x = await exchange(ctx, richBody());
    if (!x.seen) return notForwarded(x);
    const t = translation('messages', x.seen);
    if (!t) return notTranslated('messages', x.seen);
    const sent = RECORDS.messages.readRequest('/v1/messages', x.sent)!;
    const seen = seenMeaning(x.seen);
    const evidence = { ...routeEvidence(ctx, x.seen), ...exchangeEvidence(x) };
    if (!seen) return fail(`the request reached the ${t.to} path with a body that is not a ${t.to} request`, { expected: `a ${t.to} request`, actual: excerpt(x.seen.body.toString('utf8'), 200), evidence });
    const diffs = requestDiffs(sent, seen, ctx.settings.modelRoutes);
    if (diffs.length)
      return fail(`the translation ${t.from} → ${t.to} lost or changed ${diffs.map((d) => d.field).join(', ')}`, {
        expected: diffs.map((d) => `${d.field}: ${JSON.stringify(d.sent)}`).join('\n'),
        actual: diffs.map((d) => `${d.field}: ${JSON.stringify(d.seen)}`).join('\n'),
        evidence: { ...evidence, sentMeaning: sent, upstreamMeaning: seen },
      });
    return pass(`forwarded as ${t.to}: model, system, ${seen.turns.length} turns, ${seen.toolCalls.length} tool call, ${seen.tools.length} tool and ${Object.keys(sent.params).length} parameters kept`, evidence);
  },
});
