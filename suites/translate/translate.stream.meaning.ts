// XLATE-ANS-1 on a stream: a streamed answer mapped back from another protocol keeps its text,
// its tool call (name and arguments, streamed in pieces) and its stop reason, as the answer that
// is not streamed does (translate.answer.meaning). A gateway that maps only text deltas back drops
// every streamed tool call, and an agent then never runs the tool it was asked to.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { RECORDS, type StreamStep } from '../../src/protocols/index.js';
import { streamEvidenceOf, streamThrough } from '../shared/exchange.js';
import { notTranslated, translation } from '../shared/route.js';
import { MESSAGES_MODEL, MESSAGES_PATH } from '../shared/protocols.js';
import { richBody, ON_TRANSLATED_ROUTE } from './common.js';

const TOOL = { id: 'toolu_01XlateStream00000000001', name: 'get_weather' };
const ARGS = ['{"city": "Pa', 'ris", "day": "tomo', 'rrow"}'];
const TEXT = ['Let me ', 'check the é😀 forecast.'];

/** The upstream's stream, in messages (the recording upstream writes it in the protocol the route forwards in). */
const STEPS: StreamStep[] = [
  { t: 'start', model: MESSAGES_MODEL, usage: { input: 120, output: 1 } },
  ...TEXT.map((text): StreamStep => ({ t: 'text', text })),
  { t: 'tool', ...TOOL },
  ...ARGS.map((json): StreamStep => ({ t: 'args', json })),
  { t: 'stop', stop: 'tool_use', usage: { input: 120, output: 31 } },
  { t: 'end' },
];

/** What a stream's events mean to the client: its text, its tool calls with their arguments joined, its stop reason. */
function meaningOf(data: string[]): { text: string; calls: Array<{ name: string; args: string }>; stop: string | null } {
  const reader = RECORDS.messages.replies.streamReader();
  const out = { text: '', calls: [] as Array<{ name: string; args: string }>, stop: null as string | null };
  for (const d of data)
    for (const s of reader.read(d) ?? []) {
      if (s.t === 'text') out.text += s.text;
      else if (s.t === 'tool') out.calls.push({ name: s.name, args: '' });
      else if (s.t === 'args' && out.calls.length) out.calls[out.calls.length - 1].args += s.json;
      else if (s.t === 'stop') out.stop = s.stop;
    }
  return out;
}

/** Arguments by meaning: the same JSON however it was split or spaced. */
const args = (a: string) => {
  try {
    return JSON.stringify(JSON.parse(a || '{}'));
  } catch {
    return `(not JSON) ${a}`;
  }
};

export default defineCheck({
  id: 'translate.stream.meaning',
  title: 'A streamed answer mapped back from another protocol keeps its text, its tool call (name and arguments) and its stop reason',
  requirements: ['XLATE-ANS-1'],
  ...ON_TRANSLATED_ROUTE,
  requirement:
    "On a translated route a streamed answer with text and a tool call (its arguments streamed in three pieces) reaches the client, in the client protocol, with the same text, the tool call's name and arguments (the same JSON once the pieces are joined) and the stop reason mapped to its counterpart (tool_use).",
  fix: "Translate every kind of streamed delta, not only text: an upstream tool call (chat completions' `delta.tool_calls`, its `function.arguments` in pieces) becomes a `tool_use` content block whose `input_json_delta` pieces carry the arguments, and `finish_reason: tool_calls` becomes `stop_reason: tool_use`.",
  async run(ctx) {
    const writer = RECORDS.messages.replies.streamWriter();
    const texts = STEPS.flatMap((s) => writer.write(s));
    const reply = { kind: 'sse' as const, protocol: 'messages' as const, status: 200, headers: RECORDS.messages.replies.sseHeaders, frames: texts.map((data) => ({ gapMs: 0, data })) };
    const x = await streamThrough(ctx, reply, { path: MESSAGES_PATH, body: richBody({ stream: true }), headers: [['anthropic-version', '2023-06-01']] });
    if (x.seen && !translation('messages', x.seen)) return notTranslated('messages', x.seen);
    const evidence = streamEvidenceOf(x, 600);
    if (x.res.status !== 200 || !x.seen) return fail(x.seen ? `the client got status ${x.res.status} instead of a stream (the upstream streamed in ${x.seen.protocol})` : `the request never reached the upstream (the gateway answered ${x.res.status})`, { evidence });
    const got = meaningOf(x.res.events.map((e) => `data: ${e.data}`));
    const want = { text: TEXT.join(''), calls: [{ name: TOOL.name, args: args(ARGS.join('')) }], stop: 'tool_use' };
    const have = { ...got, calls: got.calls.map((c) => ({ name: c.name, args: args(c.args) })) };
    const lost = (['text', 'calls', 'stop'] as const).filter((k) => JSON.stringify(want[k]) !== JSON.stringify(have[k]));
    const names = { text: 'text', calls: 'tool calls', stop: 'stop reason' };
    if (lost.length)
      return fail(`the stream mapped back from ${x.seen.protocol} lost or changed its ${lost.map((k) => names[k]).join(', ')}`, {
        expected: lost.map((k) => `${names[k]}: ${JSON.stringify(want[k])}`).join('\n'),
        actual: lost.map((k) => `${names[k]}: ${JSON.stringify(have[k])}`).join('\n'),
        evidence,
      });
    return pass(`the stream came back from ${x.seen.protocol} with its text, the ${TOOL.name} call and its arguments, and stop reason tool_use`, evidence);
  },
});
