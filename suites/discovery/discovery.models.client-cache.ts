import { defineCheck, fail, pass } from '../../src/check/check.js';
import { MODELS } from '../../src/protocols/messages/index.js';
import { describe, discover, discoveryEvidence, keptByClient, parseModelList, uncorrelated, uncorrelatedSkip } from './common.js';
import { plural } from '../../src/core/words.js';

export default defineCheck({
  id: 'discovery.models.client-cache',
  title: 'What the client would cache from GET /v1/models?limit=1000: the ids it keeps',
  requirements: ['DISC-7'],
  level: 'INFO',
  protocol: 'messages',
  requirement:
    'Reports the models Claude Code would keep from the gateway\'s list (ids that contain claude or anthropic in any case, provider-prefixed Claude ids such as us.anthropic.claude-… included, with their display names) and how they differ from the upstream\'s list. Listing a model establishes none of its features: search, 1M context, thinking and one-hour caching are checked on their own (DISC-7).',
  fix: 'Informational: it lists what the client would keep. Models it leaves out need ids that contain `claude` or `anthropic` (any case; a provider prefix such as `us.anthropic.` is fine).',
  async run(ctx) {
    const d = await discover(ctx, 'bearer');
    const evidence = discoveryEvidence(d, 600);
    if (uncorrelated(d)) return uncorrelatedSkip(d);
    const list = d.shape?.json && d.res!.status < 300 ? parseModelList(d.shape.parsed) : null;
    if (!list?.ok)
      return fail(`the client would cache no model: the answer is not a model list (${list && !list.ok ? list.why : describe(d)})`, { expected: 'a model list the client can keep', actual: describe(d), evidence });
    const { kept, ignored } = keptByClient(list.items);
    const cache = kept.map((m) => ({ id: m.id, display_name: m.display_name ?? null }));
    const facts = { ...evidence, wouldCache: cache, ignoredIds: ignored, note: 'listing establishes no feature (search, 1M context, thinking, 1h caching)' };
    const findings: string[] = [];
    if (ignored.length) findings.push(`the client would ignore ${plural(ignored.length, 'listed id')} that contain neither claude nor anthropic: ${ignored.slice(0, 5).join(', ')}`);
    if (!kept.length) findings.push('the client would keep no model');
    if (d.expectation.hits.length) {
      const upstream = MODELS.map((m) => m.id);
      const got = kept.map((m) => m.id);
      const missing = upstream.filter((id) => !got.includes(id));
      const added = got.filter((id) => !upstream.includes(id));
      if (missing.length) findings.push(`${plural(missing.length, 'model')} the upstream listed are missing: ${missing.join(', ')}`);
      if (added.length) findings.push(`${plural(added.length, 'model')} the upstream did not list were added: ${added.join(', ')}`);
    }
    if (findings.length) return fail(findings.join('; '), { expected: `the upstream's ${MODELS.length} models, all kept by the client`, actual: kept.map((m) => m.id).join(', ') || '(none)', evidence: facts });
    return pass(`the client would cache ${plural(kept.length, 'model')}: ${kept.map((m) => m.id).join(', ')} (listing establishes no feature)`, facts);
  },
});
