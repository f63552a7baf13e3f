// XLATE-STOP-1: on a translated route the newer stop reasons (refusal, pause_turn,
// model_context_window_exceeded) come back by meaning, JSON and streamed. The upstream says each
// in the protocol the route forwards in (its own word where it has one, its nearest where it has
// none: chat completions has no pause); the client must get that word's messages counterpart,
// never a word of the other protocol (`stop`, `content_filter`) nor `end_turn` for a refusal.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { RECORDS, jsonReply, type Answer, type Protocol, type StreamStep } from '../../src/protocols/index.js';
import { blocksBody, NEWER_STOP_REASONS } from '../../src/protocols/messages/index.js';
import { exchange, notForwarded, streamThrough } from '../shared/exchange.js';
import { notTranslated, translation } from '../shared/route.js';
import { MESSAGES_MODEL, MESSAGES_PATH } from '../shared/protocols.js';
import { jsonStop, streamStop } from '../shared/stop.js';
import { richBody, routeEvidence, ON_TRANSLATED_ROUTE } from './common.js';

const MESSAGES = RECORDS.messages.replies;

/** The upstream's answer that stopped for the messages word `stop`, by meaning. */
function answerFor(stop: string): Answer {
  const meaning = MESSAGES.readAnswer(blocksBody({ blocks: [{ type: 'text', text: 'x' }], stop }))!.stop;
  return { model: MESSAGES_MODEL, text: `Stopped here (${stop}).`, toolCalls: [], stop: meaning, usage: { input: 40, output: 9 } };
}

/** The messages word the client must get for `a` on a route to `to`: the counterpart of what the upstream says there. */
function expectedWord(a: Answer, to: Protocol): { word: string; said: string } {
  const codec = RECORDS[to].replies;
  const said = codec.readAnswer(codec.answer(a))?.stop ?? a.stop;
  return { word: jsonStop(MESSAGES.answer({ ...a, stop: said })), said };
}

const steps = (a: Answer): StreamStep[] => [{ t: 'start', model: a.model, usage: { ...a.usage, output: 1 } }, { t: 'text', text: a.text }, { t: 'stop', stop: a.stop, usage: a.usage }, { t: 'end' }];

export default defineCheck({
  id: 'translate.stop.reasons',
  title: 'On a translated route refusal, pause_turn and model_context_window_exceeded come back as their counterparts, never as stop or content_filter',
  requirements: ['XLATE-STOP-1'],
  ...ON_TRANSLATED_ROUTE,
  requirement:
    "On a translated route an answer that stopped for refusal, pause_turn or model_context_window_exceeded reaches the client, JSON and streamed, with the client protocol's counterpart of the stop reason the upstream gave (the same word where the upstream's protocol has it), never a word of the upstream's protocol (stop, content_filter) nor end_turn for a refusal.",
  fix: "Map stop reasons by meaning in both directions and pass through the ones both sides share: from a messages-shaped upstream (Bedrock, Vertex) `refusal`, `pause_turn` and `model_context_window_exceeded` stay as they are; from chat completions `content_filter` becomes `refusal` and `length` `max_tokens`. Never write the middle format's words (`stop`, `content_filter`) into a messages answer.",
  async run(ctx) {
    const rows: Array<{ stop: string; mode: 'json' | 'stream'; want: string; said: string; got: string }> = [];
    let to: Protocol | null = null;
    let seenOnce = null as Parameters<typeof routeEvidence>[1];
    for (const stop of NEWER_STOP_REASONS) {
      const a = answerFor(stop);
      const x = await exchange(ctx, richBody(), { reply: (c) => c.upstream.register({ ...jsonReply(MESSAGES, MESSAGES.answer(a)), protocol: 'messages' }) });
      if (!x.seen) return notForwarded(x);
      const t = translation('messages', x.seen);
      if (!t) return notTranslated('messages', x.seen);
      to = t.to;
      seenOnce = x.seen;
      const w = expectedWord(a, t.to);
      rows.push({ stop, mode: 'json', ...w, want: w.word, got: x.res.status === 200 ? jsonStop(x.res.text()) : `(status ${x.res.status})` });
      const writer = MESSAGES.streamWriter();
      const frames = steps(a).flatMap((s) => writer.write(s)).map((data) => ({ gapMs: 0, data }));
      const s = await streamThrough(ctx, { kind: 'sse', protocol: 'messages', status: 200, headers: MESSAGES.sseHeaders, frames }, { path: MESSAGES_PATH, body: richBody({ stream: true }), headers: [['anthropic-version', '2023-06-01']] });
      rows.push({ stop, mode: 'stream', ...w, want: w.word, got: s.res.status === 200 ? streamStop(s.res.events) : `(status ${s.res.status})` });
    }
    const evidence = { ...routeEvidence(ctx, seenOnce), stopReasons: rows.map((r) => `${r.mode} ${r.stop}: the upstream said ${r.said} in ${to}, the client got ${r.got} (${r.want} expected)`) };
    const bad = rows.filter((r) => r.got !== r.want);
    if (bad.length)
      return fail(`${bad.length} of ${rows.length} answers mapped back from ${to} with the wrong stop reason: ${bad.map((r) => `${r.stop} (${r.mode}) as ${r.got}`).join('; ')}`, {
        expected: bad.map((r) => `${r.mode} ${r.stop}: ${r.want}`).join('\n'),
        actual: bad.map((r) => `${r.mode} ${r.stop}: ${r.got}`).join('\n'),
        evidence,
      });
    return pass(`the stop reasons came back from ${to} by meaning, JSON and streamed: ${rows.filter((r) => r.mode === 'json').map((r) => `${r.stop} as ${r.got}`).join(', ')}`, evidence);
  },
});
