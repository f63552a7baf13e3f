import { defineCheck, fail, pass } from '../../src/check/check.js';
import { describeByteDiff, diffBytes } from '../../src/core/json-diff.js';
import { frames, messageStream } from '../../src/protocols/messages/index.js';
import { notStreamed, streamEvidence, streamExchange } from './common.js';

export default defineCheck({
  id: 'streaming.frame.bytes',
  title: 'A full stream with \\n and with \\r\\n framing arrives byte for byte',
  requirements: ['SSE-FRAME-2'],
  level: 'SHOULD',
  untranslatable: 'the stream\'s bytes',
  protocol: 'messages',
  requirement: 'The stream body reaches the client byte for byte: framing, line endings and spacing as the upstream wrote them.',
  fix: 'Pass the stream through byte for byte instead of re-framing it (line endings and spacing as the upstream wrote them).',
  async run(ctx) {
    for (const eol of ['\n', '\r\n']) {
      const f = frames(messageStream({ full: true, textDeltas: 5 }), { eol });
      const x = await streamExchange(ctx, f);
      if (x.res.status !== 200 || !x.seen) return notStreamed(x);
      const d = diffBytes(Buffer.from(f.map((fr) => fr.data).join('')), x.res.raw);
      // The client keeps the first STREAM_KEEP bytes of a longer stream: the length is what it read.
      if (d) d.actualLength = x.res.rawBytes;
      if (d) return fail(`${eol === '\n' ? 'LF' : 'CRLF'}-framed stream: ${describeByteDiff(d)}`, { expected: `${d.expectedLength} bytes as sent`, actual: `${d.actualLength} bytes, first difference at ${d.offset}`, evidence: { byteDiff: d, ...streamEvidence(x) } });
    }
    return pass('both streams arrived byte for byte');
  },
});
