import { defineCheck, fail, pass } from '../../src/check/check.js';
import { streamEvidence } from './common.js';
import { silentExchange, silentTimeline } from './idle.js';

/** The longest the client may go without a byte while the upstream sends pings. */
const MAX_GAP_S = 15;
/** The silence: just past the bound, so a gateway that drops every ping shows a gap over it. */
const SILENCE_S = 16;
/** The upstream pings this often during the silence, as the real API does while a model thinks. */
const PING_EVERY_S = 4;

export default defineCheck({
  id: 'streaming.keepalive.ping',
  title: `While the model is silent for ${SILENCE_S} s and the upstream pings every ${PING_EVERY_S} s, the client receives bytes at least every ${MAX_GAP_S} s`,
  requirements: ['SSE-KEEP-1'],
  level: 'SHOULD',
  untranslatable: 'ping events (another protocol has none)',
  protocol: 'messages',
  // It only waits, beside the idle probe and every other check, adding about a second to the run.
  background: true,
  timeLimitMs: (s) => SILENCE_S * 1000 + Math.max(s.timeoutMs, 15_000),
  requirement: `A messages stream silent for ${SILENCE_S} s after content_block_start, the upstream sending a ping every ${PING_EVERY_S} s: the client's longest time without a byte, from the request to the end of the stream, stays under ${MAX_GAP_S} s (SSE-KEEP-1).`,
  fix: 'Forward the upstream\'s `ping` events as they come (or, on a translating route, send an SSE comment such as `: keepalive` at least every 15 s while the model is silent), and flush each one to the client at once.',
  async run(ctx) {
    const x = await silentExchange(ctx, silentTimeline(SILENCE_S * 1000, PING_EVERY_S * 1000), { idleTimeoutMs: SILENCE_S * 1000 + 10_000 });
    const times = [x.res.startedAt, ...x.res.chunks.map((c) => c.at), x.res.endedAt];
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    const longest = Math.max(...gaps);
    const pings = x.res.events.filter((e) => e.event === 'ping').length;
    const evidence = { silenceS: SILENCE_S, pingEveryS: PING_EVERY_S, longestGapMs: Math.round(longest), pingsReceived: pings, stream: streamEvidence(x, 300) };
    if (x.res.error) return fail(`the stream ended with an error during the silence: ${x.res.error}`, { evidence });
    if (longest >= MAX_GAP_S * 1000)
      return fail(`the client received nothing for ${(longest / 1000).toFixed(1)} s while the upstream pinged every ${PING_EVERY_S} s (${pings} pings reached the client)`, {
        expected: `a byte at least every ${MAX_GAP_S} s`,
        actual: `${(longest / 1000).toFixed(1)} s without a byte`,
        evidence,
      });
    return pass(`the longest time without a byte was ${(longest / 1000).toFixed(1)} s (${pings} pings reached the client)`, evidence);
  },
});
