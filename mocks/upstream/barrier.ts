// The start barrier of attached load shards (`run --attach --shard i/n --start-together S`): each
// shard registers once it has calibrated, and its answer is held until all n have; then every one
// is told the same start moment, a little ahead so that the answers reach them all before it. A
// shard of another build or other settings, a shard that registers twice, and a wait past a
// shard's own bound are refused with a line that says which.
import type http from 'node:http';
import { performance } from 'node:perf_hooks';
import type { BarrierAnswer, BarrierRequest } from '../../src/upstream/attach-wire.js';
import { refuseNdjson as refuse } from '../../src/core/server.js';

/**
 * How far ahead of the release the common start is set: the answers leave the mock at once, and
 * each must reach its shard (a round trip's half, under 1 ms on loopback, a few ms between machines
 * of one network) and its timer fire before it. 250 ms is fifty times the 5 ms of a busy network.
 */
export const START_LEAD_MS = 250;

interface Waiting {
  session: string;
  peer: string;
  req: BarrierRequest;
  res: http.ServerResponse;
  timer: NodeJS.Timeout;
}

export class StartBarrier {
  private waiting: Waiting[] = [];
  constructor(private readonly log: (s: string) => void) {}

  /** Registers a shard; answers it now (refused) or when the barrier opens or its wait runs out. */
  register(session: string, peer: string, req: BarrierRequest, res: http.ServerResponse): void {
    if (!Number.isInteger(req?.index) || !Number.isInteger(req?.count) || req.index < 1 || req.index > req.count || typeof req.key !== 'string' || !(req.timeoutMs > 0)) return refuse(res, 400, 'BAD_FLAG', 'a barrier registration needs index, count (1 <= index <= count), key and timeoutMs');
    const first = this.waiting[0];
    if (first && (first.req.count !== req.count || first.req.key !== req.key))
      return refuse(res, 409, 'MERGE_REFUSED', `shard ${req.index}/${req.count} from ${peer} does not match shard ${first.req.index}/${first.req.count} from ${first.peer} waiting here: ${first.req.count !== req.count ? `a count of ${req.count}, not ${first.req.count}` : `another harness build or other load settings (${req.key} against ${first.req.key})`}`);
    const twice = this.waiting.find((w) => w.req.index === req.index || w.session === session);
    if (twice) return refuse(res, 409, 'MERGE_REFUSED', `shard ${req.index}/${req.count} registered twice (from ${twice.peer} and ${peer}): give each shard its own index`);
    const timer = setTimeout(() => this.expire(session), req.timeoutMs);
    this.waiting.push({ session, peer, req, res, timer });
    res.on('close', () => this.leave(session));
    this.log(`start barrier: shard ${req.index}/${req.count} from ${peer} registered (${this.waiting.length} of ${req.count})`);
    if (this.waiting.length === req.count) this.open();
  }

  /** A session that ended (its stream closed) leaves the barrier. */
  leave(session: string): void {
    const w = this.waiting.find((x) => x.session === session);
    if (!w) return;
    clearTimeout(w.timer);
    this.waiting = this.waiting.filter((x) => x !== w);
  }

  private open(): void {
    const now = performance.now();
    const answer: BarrierAnswer = { now, startAt: now + START_LEAD_MS, startAtWall: Date.now() + START_LEAD_MS, registered: this.waiting.length };
    for (const w of this.waiting) {
      clearTimeout(w.timer);
      w.res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    }
    this.log(`start barrier: all ${answer.registered} shards registered; they start in ${START_LEAD_MS} ms`);
    this.waiting = [];
  }

  private expire(session: string): void {
    const w = this.waiting.find((x) => x.session === session);
    if (!w) return;
    this.waiting = this.waiting.filter((x) => x !== w);
    const have = [w, ...this.waiting].map((x) => x.req.index).sort((a, b) => a - b);
    const missing = Array.from({ length: w.req.count }, (_, i) => i + 1).filter((i) => !have.includes(i));
    refuse(w.res, 408, 'NOT_READY', `only ${have.length} of ${w.req.count} load shards registered within ${w.req.timeoutMs / 1000} s (registered: ${have.join(', ')}; missing: ${missing.join(', ')})`);
  }
}
