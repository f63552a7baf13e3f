// APP-SPEND-4, seen two ways. By the spend limit, on any gateway: gina (1-cent daily limit) sends
// one stream the upstream cuts short after `message_start`, which reports only cache reads
// (100,000,000 tokens, dollars at any price); the next request must be refused. By the gateway's
// telemetry, exactly: alice's requests report distinct counts of each kind (a JSON body, a whole
// stream, a stream cut short, and one with no usage at all), and the span of each request must
// show the counts reported, unmarked, or, where nothing was reported, counts marked as an estimate.
import { defineCheck, fail, pass, type Verdict } from '../../src/check/check.js';
import { appsRun, brief, limitedSession, messages, session, spansOf, untilRefused, type AppsFixture, type AppsSpan } from './common.js';

const CLASSES = [
  { name: 'input', key: (k: string) => /input/i.test(k) && !/cache/i.test(k) },
  { name: 'output', key: (k: string) => /output/i.test(k) },
  { name: 'cache creation', key: (k: string) => /cache.?(creation|write)/i.test(k) },
  { name: 'cache read', key: (k: string) => /cache.?read/i.test(k) },
] as const;

/** The requests whose accounting the telemetry must show: the counts (input, output, cache creation, cache read) the upstream reports; null: not judged. */
const CASES: { what: string; stream: boolean; counts: (number | null)[]; cut?: boolean }[] = [
  { what: 'a JSON answer', stream: false, counts: [1237, 58, 311, 4409] },
  { what: 'a stream (message_start and message_delta)', stream: true, counts: [2351, 67, 422, 5518] },
  // Cut after message_start: its output count (1) is not the answer's, so it is not judged.
  { what: 'a stream the upstream cut short after message_start', stream: true, counts: [3463, null, 533, 6627], cut: true },
];

const entries = (spans: AppsSpan[]) => spans.flatMap((s) => Object.entries(s.attributes));
const marked = (spans: AppsSpan[]) => entries(spans).some(([k, v]) => /estimat/i.test(k) && (v === true || v === 'true' || v === 1));
const usageOf = (spans: AppsSpan[]) => entries(spans).filter(([k]) => /token|usage|estimat/i.test(k)).map(([k, v]) => `${k}=${String(v)}`).join(', ');

/** By the spend limit: a cut stream reporting only cache reads takes gina over her 1-cent limit. */
async function byLimit(fx: AppsFixture): Promise<Verdict | undefined> {
  const token = await limitedSession(fx, 'gina');
  const first = await messages(fx, token, 'claude-sonnet-4-6', { prompt: 'gwc-usage=0/1/0/100000000 gwc-cut', stream: true, partial: true });
  // A reset before the headers (status 0, `cut`) still delivered message_start's usage to the gateway: the limit decides.
  if (first.status !== 200 && !first.cut) return fail('the cut stream that was to take gina over her limit was not served', { actual: brief(first) });
  const after = await untilRefused(() => messages(fx, token, 'claude-sonnet-4-6'));
  if ([402, 403, 429].includes(after.denied.status)) return undefined;
  return fail(`a stream cut short after message_start, which reported 100,000,000 cache-read tokens, did not count against the 1-cent limit: ${after.later + 1} requests after it were served`, {
    expected: 'the next request refused (402, 403 or 429)',
    actual: brief(after.denied),
    evidence: { cutStream: `${first.status}, ${first.cut ?? 'not cut (the gateway answered it whole)'}` },
  });
}

/** By the telemetry: each request's span shows what the upstream reported, or a marked estimate. */
async function byTelemetry(fx: AppsFixture): Promise<Verdict | undefined> {
  const token = await session(fx, 'alice');
  for (const c of CASES) {
    const r = await messages(fx, token, 'claude-sonnet-4-6', { prompt: `gwc-usage=${c.counts.map((n) => n ?? 1).join('/')}${c.cut ? ' gwc-cut' : ''}`, stream: c.stream, partial: c.cut });
    const spans = await spansOf(fx, r.headers.get('request-id'));
    if (!spans.length) return fail(`no span of ${c.what} reached the collector: the gateway's accounting of it cannot be seen, nor an estimate's mark (see apps.tel.traces)`, { actual: `request-id ${r.headers.get('request-id') ?? 'none'}, ${brief(r)}` });
    const wrong = CLASSES.filter((cls, i) => c.counts[i] !== null && !entries(spans).some(([k, v]) => cls.key(k) && Number(v) === c.counts[i])).map((cls) => `${cls.name} ${c.counts[CLASSES.indexOf(cls)]}`);
    if (wrong.length) return fail(`the span of ${c.what} does not show the ${wrong.length === 1 ? 'count' : 'counts'} the upstream reported: ${wrong.join(', ')}`, { expected: CLASSES.map((cls, i) => `${cls.name} ${c.counts[i] ?? '(not judged)'}`).join(', '), actual: usageOf(spans) || 'no usage attributes' });
    if (marked(spans)) return fail(`the span of ${c.what} marks the counts the upstream reported as an estimate`, { actual: usageOf(spans) });
  }
  const none = await messages(fx, token, 'claude-sonnet-4-6', { prompt: 'gwc-usage=none' });
  const spans = await spansOf(fx, none.headers.get('request-id'));
  if (!marked(spans)) {
    const counted = entries(spans).some(([k, v]) => CLASSES.some((cls) => cls.key(k)) && Number(v) > 0);
    return fail(counted ? 'the upstream reported no usage and the span shows token counts not marked as an estimate' : 'the upstream reported no usage and the span neither estimates nor says so', { expected: 'counts marked as an estimate (an attribute such as gateway.usage.estimated = true)', actual: usageOf(spans) || 'no usage attributes' });
  }
  return undefined;
}

export default defineCheck({
  id: 'apps.spend.usage',
  title: 'Spend and token accounting use the counts the upstream reported (cache tokens, streams and cut streams too); an estimate is marked',
  requirements: ['APP-SPEND-4'],
  level: 'MUST',
  profile: 'apps',
  requirement:
    "The gateway accounts the counts the upstream reported (input, output, cache creation, cache read) from a JSON body, from message_start plus message_delta of a stream, and from a stream cut short; it estimates only when nothing was reported, and marks the estimate. Seen by the spend limit (a cut stream reporting only cache reads must take a 1-cent limit over) and by each request's span.",
  fix: 'Account the usage the upstream reports: all four counts (input, output, `cache_creation_input_tokens`, `cache_read_input_tokens`), from the JSON body or from `message_start` and `message_delta` of a stream, and keep what a stream reported when it breaks off. Estimate only when nothing was reported, and mark the estimate in the span and the spend record.',
  run: appsRun(async (fx) => {
    const [limit, telemetry] = await Promise.all([byLimit(fx), byTelemetry(fx)]);
    // Both ways failing: the limit's verdict, with what the telemetry shows of the cause.
    if (limit && telemetry) return { ...limit, message: `${limit.message}; in telemetry: ${telemetry.message}`, evidence: { ...(limit.evidence as object), telemetry: `${telemetry.message} (expected ${telemetry.expected ?? '-'}; actual ${telemetry.actual ?? '-'})` } };
    if (limit) return limit;
    if (telemetry) return { ...telemetry, message: `the spend limit counted a stream cut short that reported only cache reads; but ${telemetry.message}` };
    return pass('a cut stream of cache reads took the limit over; the spans show the reported counts of a JSON answer, a stream and a cut stream, and mark the estimate where nothing was reported');
  }),
});
