// RESP-COMPACT-2: Codex's streamed compaction: a /v1/responses stream asked with a terminal
// compaction_trigger input item carries its compaction item in response.output_item.done while
// response.completed's output is empty; that item must reach the client.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { framesOf } from '../../src/protocols/index.js';
import { compactionStream, responsesSseReply } from '../../src/protocols/responses/index.js';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { streamEvidenceOf, streamThrough } from '../shared/exchange.js';
import { RESPONSES_PATH } from '../shared/protocols.js';
import { eventName, noStream } from './common.js';

const SEALED = 'gAAAAABgwc-streamed-compaction-sealed-by-the-upstream-000000000000000000000000';

/** A streamed turn whose input ends in Codex's compaction trigger. */
const body = () =>
  JSON.stringify({
    model: 'gpt-5.5',
    stream: true,
    store: false,
    include: ['reasoning.encrypted_content'],
    input: [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: `${CASE_PLACEHOLDER} Refactor the parser into two modules.` }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Split into lexer.rs and parser.rs; tests pass.' }] },
      { type: 'compaction_trigger' },
    ],
  });

/** The compaction item an event carries in response.output_item.done, if it does. */
function compactionDone(data: string): { encrypted_content?: unknown } | null {
  try {
    const v = JSON.parse(data) as { type?: unknown; item?: { type?: unknown; encrypted_content?: unknown } };
    return v.type === 'response.output_item.done' && v.item?.type === 'compaction' ? v.item : null;
  } catch {
    return null;
  }
}

export default defineCheck({
  id: 'responses.compact.stream-item',
  title: 'A streamed compaction\'s compaction item (in response.output_item.done, not in response.completed) reaches the client',
  requirements: ['RESP-COMPACT-2'],
  level: 'MUST',
  untranslatable: 'the upstream\'s compaction item, byte for byte',
  protocol: 'responses',
  requirement:
    'A streamed /v1/responses request whose input ends in a `compaction_trigger` item is forwarded, and the `compaction` item the upstream sends in `response.output_item.done` reaches the client with its `encrypted_content` unchanged, though `response.completed` then carries an empty `output`.',
  fix: 'Pass every `response.output_item.done` event through as it came, whatever its item type; do not rebuild the stream (or the client\'s history) from `response.completed.output`, which is empty for a compaction, and do not drop items of types the gateway does not know.',
  async run(ctx) {
    const frames = compactionStream(SEALED);
    const x = await streamThrough(ctx, responsesSseReply(framesOf(frames)), { path: RESPONSES_PATH, auth: 'bearer', body: body() });
    const ev = streamEvidenceOf(x);
    if (x.res.status !== 200 || !x.seen) return fail(noStream(x), { expected: 'the stream with its compaction item', evidence: ev });
    const names = x.res.events.map((e) => eventName(e.data)).join(' | ');
    const items = x.res.events.map((e) => compactionDone(e.data)).filter((i) => i !== null);
    if (!items.length) return fail('the compaction item never reached the client: no response.output_item.done carried it', { expected: 'response.output_item.done with the compaction item, then response.completed', actual: names || '(no events)', evidence: { events: names, ...ev } });
    if (items[0].encrypted_content !== SEALED) return fail('the compaction item reached the client with its encrypted_content changed', { expected: SEALED, actual: String(items[0].encrypted_content), evidence: ev });
    return pass('the compaction item reached the client in response.output_item.done, its encrypted_content unchanged', ev);
  },
});
