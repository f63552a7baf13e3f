import { defineCheck, fail, pass } from '../../src/check/check.js';
import { describe, discover, discoveryEvidence, parseModelList, replyFor, uncorrelated, uncorrelatedSkip, type ModelItem } from './common.js';
import { plural } from '../../src/core/words.js';

const CALLS = 3;
const line = (items: ModelItem[]) => items.map((m) => m.id).join(', ');

export default defineCheck({
  id: 'discovery.models.stable',
  title: 'Three GET /v1/models?limit=1000 calls, the upstream answering the same list, give the same items in the same order',
  requirements: ['DISC-6'],
  level: 'SHOULD',
  protocol: 'messages',
  requirement: 'Repeated discovery calls give the same models (id and display name) in the same order, so the client\'s cached list and model picker do not change between runs (DISC-6).',
  fix: 'Return the same models in the same order on every call (sort deterministically; do not shuffle between upstreams).',
  async run(ctx) {
    const reply = replyFor(ctx, 'bearer');
    const calls = [];
    for (let i = 0; i < CALLS; i++) calls.push(await discover(ctx, 'bearer', reply));
    const evidence = { calls: calls.map((d) => discoveryEvidence(d, 600)) };
    if (calls.some(uncorrelated)) return uncorrelatedSkip(calls.find(uncorrelated)!);
    const lists = calls.map((d) => (d.shape?.json && d.res!.status < 300 ? parseModelList(d.shape.parsed) : null));
    const notList = lists.findIndex((l) => !l?.ok);
    if (notList >= 0) return { ok: true, skip: true, message: `call ${notList + 1} got no model list to compare (${describe(calls[notList])}); discovery.models.json reports why`, evidence };
    const items = lists.map((l) => (l as { ok: true; items: ModelItem[] }).items);
    const key = (m: ModelItem) => `${m.id}\u0000${m.display_name ?? ''}`;
    for (let i = 1; i < items.length; i++) {
      const a = items[0].map(key).join('\n');
      const b = items[i].map(key).join('\n');
      if (a !== b) {
        const at = items[0].findIndex((m, j) => key(m) !== (items[i][j] ? key(items[i][j]) : ''));
        return fail(`call ${i + 1} listed the models differently from call 1 (first difference at position ${at < 0 ? items[0].length : at})`, {
          expected: line(items[0]),
          actual: line(items[i]),
          evidence,
        });
      }
    }
    return pass(`${CALLS} calls listed the same ${plural(items[0].length, 'model')} in the same order`, evidence);
  },
});
