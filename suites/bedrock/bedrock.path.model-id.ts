import { defineCheck, fail, pass } from '../../src/check/check.js';
import { maskUrl } from '../../src/core/mask.js';
import { exchange, notForwarded } from '../shared/exchange.js';
import { exchangeEvidence, streamEvidence } from '../shared/evidence.js';
import { bedrockSend, bedrockStreamExchange, bedrockBody } from './common.js';
import { awsSdkModel, bedrockModelOf, bedrockPath } from '../../src/protocols/bedrock/index.js';

// Model ids as Bedrock names them: a cross-region inference profile, a base model, a global
// profile; dots, dashes and the ":" version suffix. Each is sent as @anthropic-ai/bedrock-sdk
// sends it (":" literal) and as the AWS SDK does (":" as %3A).
const MODELS = ['us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'anthropic.claude-3-5-haiku-20241022-v1:0', 'global.anthropic.claude-opus-4-1-20250805-v1:0'];

/** Why a path that arrived is not the one sent, in words. */
function whatChanged(sent: string, got: string): string {
  const model = bedrockModelOf(got);
  if (model === null) return `it arrived at ${maskUrl(got)}, which is no Bedrock route`;
  const want = bedrockModelOf(sent)!;
  if (model !== want) return `the model id arrived as ${JSON.stringify(model)} instead of ${JSON.stringify(want)}${want.includes(':') && !model.includes(':') ? ' (its ":" version suffix was lost)' : ''}`;
  return `it arrived at ${maskUrl(got)} (another route)`;
}

export default defineCheck({
  id: 'bedrock.path.model-id',
  title: 'POST /model/{modelId}/invoke (and /invoke-with-response-stream) arrives with the model id intact, ":" literal or %3A',
  requirements: ['BR-PATH-1'],
  level: 'MUST',
  untranslatable: 'the path as the client sent it',
  protocol: 'bedrock',
  requirement: 'A Bedrock InvokeModel request reaches the upstream on the route it was sent to (/model/{modelId}/invoke or /invoke-with-response-stream) with the same model id: its dots and its ":" version suffix kept, whether the client sent the ":" literally or percent-encoded as %3A.',
  fix: 'Forward `/model/{modelId}/...` with the model id as the client sent it: keep its dots and its `:` version suffix (literal or `%3A`), do not cut the path at the `:` or map the id to another. In nginx, `proxy_pass` without a URI part keeps the path as received.',
  async run(ctx) {
    const seen: string[] = [];
    for (const model of MODELS) {
      for (const form of [model, awsSdkModel(model)]) {
        const x = await exchange(ctx, bedrockBody(), bedrockSend({ model: form }));
        if (!x.seen) return notForwarded(x);
        const sent = bedrockPath(form);
        const same = x.seen.url.split('?')[0].endsWith('/invoke') && bedrockModelOf(x.seen.url) === model;
        if (!same) return fail(`POST ${sent}: ${whatChanged(sent, x.seen.url)}`, { expected: sent, actual: maskUrl(x.seen.url), evidence: exchangeEvidence(x) });
        seen.push(x.seen.url);
      }
    }
    const s = await bedrockStreamExchange(ctx, { model: awsSdkModel(MODELS[0]) });
    const sent = bedrockPath(awsSdkModel(MODELS[0]), 'invoke-with-response-stream');
    if (!s.seen) return fail(`the streamed request never reached the upstream (the gateway answered ${s.res.status})`, { expected: sent, actual: '(no upstream request)', evidence: streamEvidence(s, s.reply.frames.length) });
    if (!s.seen.url.split('?')[0].endsWith('/invoke-with-response-stream') || bedrockModelOf(s.seen.url) !== MODELS[0])
      return fail(`POST ${sent}: ${whatChanged(sent, s.seen.url)}`, { expected: sent, actual: maskUrl(s.seen.url), evidence: streamEvidence(s, s.reply.frames.length) });
    seen.push(s.seen.url);
    return pass(`all ${seen.length} Bedrock paths arrived with their model id intact (both forms of ":", the stream route included)`, { paths: seen });
  },
});
