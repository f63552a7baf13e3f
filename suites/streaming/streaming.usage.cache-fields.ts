import { defineCheck, fail, pass } from '../../src/check/check.js';
import { diffJson, describeDiff } from '../../src/core/json-diff.js';
import { at, tryParse } from '../../src/core/json.js';
import { frames, messageStream } from '../../src/protocols/messages/index.js';
import { notStreamed, streamEvidence, streamExchange } from './common.js';

const PLACES: Array<[string, string]> = [
  ['message_start', '/message/usage'],
  ['message_delta', '/usage'],
];

export default defineCheck({
  id: 'streaming.usage.cache-fields',
  title: 'Cache usage in message_start and cumulative usage in message_delta reach the client exactly',
  requirements: ['MSG-USAGE-1'],
  level: 'MUST',
  untranslatable: 'the usage of `message_start` (another protocol states usage at the end only)',
  protocol: 'messages',
  requirement: 'Usage fields in stream events, the cache creation and read fields and the nested cache_creation object included, reach the client as the upstream sent them.',
  fix: 'Forward the `usage` of `message_start` and `message_delta` events unchanged, cache fields and the nested `cache_creation` object included.',
  async run(ctx) {
    const events = messageStream({ full: false, textDeltas: 2 });
    const x = await streamExchange(ctx, frames(events));
    if (x.res.status !== 200 || !x.seen) return notStreamed(x);
    for (const [name, pointer] of PLACES) {
      const sent = tryParse(events.find((e) => e.event === name)!.data);
      const gotEvent = x.res.events.find((e) => e.event === name || e.data.includes(`"type":"${name}"`));
      if (!gotEvent) return fail(`no ${name} event reached the client`, { evidence: streamEvidence(x) });
      const got = tryParse(gotEvent.data);
      if (!sent.ok || !got.ok) return fail(`the ${name} event is not JSON`, { actual: gotEvent.data, evidence: streamEvidence(x) });
      const e = at(sent.node, pointer)!;
      const a = at(got.node, pointer);
      const diffs = a ? diffJson(e, a, pointer) : [{ path: pointer, kind: 'removed' as const }];
      if (diffs.length) return fail(`${name} usage changed: ${describeDiff(diffs[0])}`, { expected: events.find((ev) => ev.event === name)!.data, actual: gotEvent.data, evidence: { diffs, ...streamEvidence(x) } });
    }
    return pass('message_start and message_delta usage arrived unchanged');
  },
});
