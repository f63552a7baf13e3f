import { defineCheck, fail, pass } from '../../src/check/check.js';
import { streamEvidenceOf } from '../shared/exchange.js';
import { nativeStreamExchange, noStream } from './common.js';
import { plural } from '../../src/core/words.js';

/** The blocks of an event stream: text up to each blank line (CRLF, LF or CR line ends), and what is left after the last. */
function blocksOf(body: string): { blocks: string[]; rest: string } {
  const parts = body.split(/\r\n\r\n|\n\n|\r\r/);
  return { blocks: parts.slice(0, -1), rest: parts[parts.length - 1] };
}

/** What is wrong with one block: it must be one `data:` line (comment lines aside). */
function blockFault(block: string): string | null {
  const lines = block.split(/\r\n|\n|\r/).filter((l) => l !== '' && !l.startsWith(':'));
  if (lines.length === 0) return null;
  const fields = lines.map((l) => l.split(':')[0]);
  const other = fields.filter((f) => f !== 'data');
  if (other.length) return `it has ${other.map((f) => `"${f}:"`).join(', ')} ${other.length === 1 ? 'line' : 'lines'}: a Gemini client reads only blocks that start with "data:" and skips the others`;
  if (lines.length > 1) return `it holds ${lines.length} data: lines (events merged into one): a Gemini client parses the whole block as one JSON value and fails`;
  return null;
}

export default defineCheck({
  id: 'native.stream.framing',
  title: 'A native stream reaches the client as server-sent events: text/event-stream, one data: line per event, blank lines between',
  requirements: ['NAT-STREAM-3'],
  level: 'MUST',
  untranslatable: "the upstream's events one for one",
  protocol: 'native',
  requirement:
    'A native stream reaches the client as server-sent events with content-type text/event-stream, each event a single data: line holding one JSON object and ended by a blank line; never as a JSON array, never with events merged into one block or given event: or other field lines.',
  fix: 'Pass the native event stream through as it came (`text/event-stream`, one `data: {...}` line per event, a blank line after each): do not convert it to a JSON array, merge events into one block or add `event:` lines, which the Gemini SDKs do not read.',
  async run(ctx) {
    const x = await nativeStreamExchange(ctx);
    const none = noStream(x);
    if (none) return none;
    const ev = streamEvidenceOf(x);
    const body = x.res.raw.toString('utf8');
    const type = x.res.header('content-type') ?? '(none)';
    if (/^\s*\[/.test(body))
      return fail(`the client got one JSON array (content-type ${type}) instead of server-sent events: the stream's framing was dropped, as the API answers without alt=sse`, { expected: 'text/event-stream, data: {...} events', actual: `${type}, body starting ${JSON.stringify(body.slice(0, 40))}`, evidence: ev });
    if (!/^text\/event-stream\b/i.test(type)) return fail(`the stream arrived with content-type ${type}`, { expected: 'text/event-stream', actual: type, evidence: ev });
    const { blocks, rest } = blocksOf(body);
    for (const [i, b] of blocks.entries()) {
      const why = blockFault(b);
      if (why) return fail(`event block ${i} is not one data: line: ${why}`, { expected: 'data: {...} then a blank line', actual: JSON.stringify(b.slice(0, 300)), evidence: ev });
    }
    // The client keeps the first STREAM_KEEP bytes of a longer stream: a block cut there is not the stream's end.
    const whole = x.res.rawBytes === x.res.raw.length;
    if (rest.trim() && whole) return fail('the stream ended inside an event (no blank line after its last data: line): a Gemini client reports an incomplete JSON segment', { expected: 'a blank line after the last event', actual: JSON.stringify(rest.slice(0, 300)), evidence: ev });
    const events = blocks.filter((b) => blockFault(b) === null && b.split(/\r\n|\n|\r/).some((l) => l.startsWith('data:'))).length;
    return pass(`${plural(events, 'event')}, each one data: line ended by a blank line, content-type ${type}`);
  },
});
