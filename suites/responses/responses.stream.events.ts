// RESP-SSE-1: every event of a Responses API stream reaches the client with its name, its data,
// its sequence_number and its place: the lifecycle events and the function-call argument deltas included.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { describeDiff, diffJson } from '../../src/core/json-diff.js';
import { tryParse } from '../../src/core/json.js';
import { eventName, noStream, pairEvents, responsesStreamExchange, unnumbered } from './common.js';
import { streamEvidenceOf } from '../shared/exchange.js';
import { plural } from '../../src/core/words.js';

const seqOf = (data: string): unknown => {
  try {
    return (JSON.parse(data) as { sequence_number?: unknown }).sequence_number;
  } catch {
    return undefined;
  }
};

export default defineCheck({
  id: 'responses.stream.events',
  title: 'A streamed response arrives whole: every named event from response.created to response.completed, sequence_number and order kept, function-call argument deltas included',
  requirements: ['RESP-SSE-1'],
  level: 'MUST',
  untranslatable: 'the upstream\'s events one for one',
  protocol: 'responses',
  requirement:
    'Every event of a Responses API stream reaches the client unchanged and in order: its `event:` name, its data, and its sequence_number as the upstream numbered it; none of the lifecycle events (response.created, response.in_progress, response.output_item.added, response.content_part.added, the deltas, the .done events, response.completed) and none of the function-call argument deltas is dropped, merged or added.',
  fix: 'Pass every Responses API event through as the upstream sent it: its `event:` line, its data and its `sequence_number`. Do not drop events a parser does not need (`response.in_progress`, `response.content_part.added`), do not renumber them, and do not rebuild the stream from parsed pieces.',
  async run(ctx) {
    const x = await responsesStreamExchange(ctx, { toolArgs: ['{"city":', ' "Z\\u00fcrich",', ' "unit": "celsius"}'] });
    const ev = streamEvidenceOf(x);
    if (x.res.status !== 200 || !x.seen) return fail(noStream(x), { evidence: ev });
    const got = x.res.events.map((e) => e.data);
    const pairs = pairEvents(x.sent.map(unnumbered), got.map(unnumbered));
    const timeline = { expected: x.sent.map(eventName).join(' | '), actual: got.map(eventName).join(' | ') };
    const lost = x.sent.map((_, i) => i).filter((i) => !pairs.some((p) => p.sent === i));
    if (lost.length) return fail(`${plural(lost.length, 'event')} never reached the client: ${lost.map((i) => eventName(x.sent[i])).join(', ')}`, { ...timeline, evidence: { lost: lost.map((i) => eventName(x.sent[i])), ...ev } });
    const renumbered = pairs.filter((p) => seqOf(x.sent[p.sent]) !== seqOf(got[p.got]));
    if (renumbered.length) {
      const first = renumbered[0];
      return fail(`${plural(renumbered.length, 'event')} arrived with another sequence_number (first: ${eventName(x.sent[first.sent])} arrived as #${String(seqOf(got[first.got]))})`, { ...timeline, evidence: ev });
    }
    for (const p of pairs) {
      const name = x.events[p.sent].event;
      const gotName = x.res.events[p.got].event;
      if (gotName !== name) return fail(`${eventName(x.sent[p.sent])} arrived under the event name ${JSON.stringify(gotName ?? null)}`, { expected: `event: ${name}`, actual: gotName === undefined ? 'no event: line' : `event: ${gotName}`, evidence: ev });
      const a = tryParse(x.sent[p.sent]);
      const b = tryParse(got[p.got]);
      if (!a.ok || !b.ok) throw new Error('harness bug: paired events are not JSON');
      const diffs = diffJson(a.node, b.node);
      if (diffs.length) return fail(`${eventName(x.sent[p.sent])} changed: ${describeDiff(diffs[0])}`, { expected: x.sent[p.sent], actual: got[p.got], evidence: { diffs, ...ev } });
    }
    if (got.length > x.sent.length) return fail(`${plural(got.length - x.sent.length, 'event')} the upstream never sent were added`, { ...timeline, evidence: ev });
    return pass(`all ${x.sent.length} events arrived with their names, sequence numbers and data, in order, response.completed last`);
  },
});
