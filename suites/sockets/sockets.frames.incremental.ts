// WS-MSG-2: the upstream's messages, sent apart, reach the client as they are sent (the stream
// timing oracle of src/core/oracle.ts, for messages): not held and passed on in bursts. Messages
// are paired by their bytes; a check that cannot pair two of them says it could not judge.
import { defineCheck, fail, type Verdict } from '../../src/check/check.js';
import { DELIVERY_WORDS, judgeDelivery, oracleEvidence, withMargin, type OracleResult } from '../../src/core/oracle.js';
import { stallMeter } from '../../src/core/stall.js';
import { endSocket, noSocketUpstream, notOpened, oneTurn, openRoute, servedRoutes, socketEvidence, type Opened } from './common.js';

/** The scripted gap between the answer's messages: well past the burst window, so a buffer shows. */
const GAP_MS = 120;

interface Timed {
  x: Opened;
  result: OracleResult | null;
  paired: number;
}

/** Pairs each message the upstream sent with the first unpaired one the client got with the same bytes. */
function pairs(x: Opened & { o: { kind: 'open' } }): Array<[number, number]> {
  const sent = x.c.sockets[0]?.frames.filter((f) => f.dir === 'out') ?? [];
  const got = x.o.socket.frames;
  const used = new Set<number>();
  const out: Array<[number, number]> = [];
  sent.forEach((s, i) => {
    const j = got.findIndex((g, k) => !used.has(k) && g.sha256 === s.sha256);
    if (j >= 0) (used.add(j), out.push([i, j]));
  });
  return out;
}

export default defineCheck({
  id: 'sockets.frames.incremental',
  title: 'The upstream\'s WebSocket messages reach the client as they are sent, not in bursts',
  requirements: ['WS-MSG-2'],
  level: 'MUST',
  timing: true,
  requirement: 'Messages the upstream sends apart on a WebSocket route reach the client as they are sent: none held and passed on together with later ones, each within the run\'s lag bound of its sending.',
  fix: 'Relay each WebSocket message as it arrives: no buffering of the upstream\'s messages into batches, no flush on a timer; in nginx, `proxy_buffering` does not apply to an upgraded connection, so look for a plugin or middleware that reads the socket.',
  async run(ctx) {
    if (!ctx.upstream.speaksSockets) return noSocketUpstream();
    const name = servedRoutes(ctx)[0];
    if (!name) return { ok: false, skip: true, message: 'not applicable: the gateway serves no WebSocket route (--websockets none)' };
    const opened: Opened[] = [];
    const measure = async (more: boolean): Promise<Timed> => {
      const x = await openRoute(ctx, { route: name, gapMs: GAP_MS, pieces: more ? ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'] : ['a', 'b', 'c', 'd'] });
      opened.push(x);
      if (x.o.kind !== 'open') return { x, result: null, paired: 0 };
      const open = x as Opened & { o: { kind: 'open' } };
      const meter = stallMeter();
      await oneTurn(open, {}, 10_000).finally(() => meter.stop());
      const p = pairs(open);
      const sent = x.c.sockets[0]?.frames.filter((f) => f.dir === 'out') ?? [];
      const result = judgeDelivery(p.map(([i]) => sent[i].at), p.map(([, j]) => open.o.socket.frames[j].at), open.o.socket.openedAt, p.map(([i]) => x.route.typeOf(sent[i].text)), ctx.settings.sse, meter.read());
      return { x, result, paired: p.length };
    };
    try {
      const { decide, remeasured } = await withMargin(await measure(false), (t) => (t.result && t.paired >= 2 ? t.result.nearBound : []), () => measure(true), (t) => t.result?.summary ?? 'no socket');
      const { x, result, paired } = decide;
      if (x.o.kind !== 'open') return notOpened(x);
      const sent = x.c.sockets[0]?.frames.filter((f) => f.dir === 'out').length ?? 0;
      if (!result || paired < 2) return { ok: false, skip: true, message: `could not judge: only ${paired} of the ${sent} messages the upstream sent arrived with the same bytes, nothing to time (sockets.frames.unchanged judges what changed)`, evidence: socketEvidence(x) } satisfies Verdict;
      const evidence = socketEvidence(x, { ...oracleEvidence(result, ctx.settings.sse), paired: `${paired} of ${sent} messages`, ...(remeasured ? { remeasured } : {}) });
      if (result.delivery !== 'incremental') return fail(`${name}: ${result.summary}`, { expected: `no burst of messages sent apart, every message within ${ctx.settings.sse.maxLagMs} ms of its sending`, actual: DELIVERY_WORDS[result.delivery], evidence });
      return { ok: true, message: `${name}: ${result.summary}${remeasured ? ' (measured twice: the first measurement was within 25% of a bound)' : ''}`, evidence };
    } finally {
      opened.forEach(endSocket);
    }
  },
});
