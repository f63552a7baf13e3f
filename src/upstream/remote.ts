// The recording upstream of a `gw-conformance mock` in another process (or on another machine),
// as the Upstream a run sees (the wire: attach-wire.ts). Cases are made here and sent to the mock
// in batches; what reaches them comes back as events on one stream. sync() is the meeting point:
// once it returns, every case registered before it is in effect at the mock, and everything that
// reached the mock before it is in the cases' hits. The mock's times are moved onto this
// process's clock by an offset measured on each exchange (the one with the shortest round trip).
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { Agent, request, type Dispatcher } from 'undici';
import { errorFromWire, HarnessError } from '../core/errors.js';
import { ATTACH_PATH, fromWire, type AttachAnswer, type AttachEvent, type AttachOps, type BarrierAnswer, type BarrierRequest } from './attach-wire.js';
import { newCaseToken } from './contract.js';
import { RecordedCase } from './expectation.js';
import type { RecordedRequest } from './record.js';
import type { Reply } from './scenario.js';
import type { Expectation, UnmatchedRequest, Upstream } from './upstream.js';

/** Cases per request to the mock (a load phase registers up to 200,000). */
const BATCH = 2000;
/** Exchanges made at attach to read the mock's clock (the shortest round trip wins). */
const CLOCK_READS = 3;
/** The clock readings the offset is chosen from: the latest ones. */
const CLOCK_WINDOW = 16;
/** The longest wait for the mock to confirm a sync on its stream. */
const SYNC_MS = 30_000;

type Waiter = { resolve: () => void; reject: (e: Error) => void };
type ClockReading = { rtt: number; offset: number };

export class RemoteUpstream implements Upstream {
  readonly unmatched: UnmatchedRequest[] = [];
  readonly httpVersions: Record<string, number> = {};
  private cases = new Map<string, RecordedCase>();
  /** Requests whose answer the mock is still writing, by the mock's sequence number. */
  private open = new Map<number, RecordedRequest>();
  private pending: Required<Pick<AttachOps, 'expect' | 'release'>> & Pick<AttachOps, 'forwardsUnder'> = { expect: [], release: [] };
  private scheduled = false;
  /** Operations go to the mock one batch after another, in the order they were made. */
  private chain: Promise<void> = Promise.resolve();
  /** The clock readings (round trip, offset) of the latest exchanges, and the one in use: the shortest round trip's. */
  private samples: ClockReading[] = [];
  private best: ClockReading = { rtt: Infinity, offset: 0 };
  private nonce = 0;
  private waiting = new Map<number, Waiter>();
  private ended: string | null = null;

  private constructor(
    readonly url: string,
    private readonly id: string,
    private readonly agent: Agent,
    private readonly stream: Dispatcher.ResponseData['body'],
  ) {}

  /** Attaches to the mock at `base` (its URL, as this machine reaches it). */
  static async attach(base: string): Promise<RemoteUpstream> {
    const url = base.replace(/\/+$/, '');
    const agent = new Agent({ keepAliveTimeout: 60_000 });
    const t0 = performance.now();
    let res: Dispatcher.ResponseData;
    try {
      res = await request(`${url}${ATTACH_PATH}`, { method: 'POST', dispatcher: agent, headersTimeout: 10_000, bodyTimeout: 0 });
    } catch (e) {
      await agent.close();
      throw new HarnessError('TARGET_UNREACHABLE', `cannot attach to a \`gw-conformance mock\` at ${url} (${(e as { code?: string }).code ?? (e as Error).message})`);
    }
    const lines = createInterface({ input: res.body })[Symbol.asyncIterator]();
    const first = await lines.next().catch(() => ({ value: undefined }));
    const ev = parse(first.value as string | undefined);
    if (res.statusCode !== 200 || ev?.type !== 'attached') {
      await agent.close();
      const why = ev?.type === 'error' ? ev : { code: 'TARGET_UNREACHABLE', message: `${url} did not answer as a \`gw-conformance mock\` (status ${res.statusCode}); start one with \`gw-conformance mock\`` };
      throw errorFromWire(why.code, `attaching to the mock at ${url}: ${why.message}`);
    }
    const up = new RemoteUpstream(url, ev.id, agent, res.body);
    up.measured(t0, performance.now(), ev.now);
    void up.consume(lines);
    // The first exchange also opened the connection: a few more, on the open one, read the clock closer.
    for (let i = 0; i < CLOCK_READS; i++) await up.sync();
    return up;
  }

  expect(reply: Reply | ((token: string) => Reply)): Expectation {
    let token = newCaseToken();
    while (this.cases.has(token)) token = newCaseToken();
    const e = new RecordedCase(token, typeof reply === 'function' ? reply(token) : reply);
    this.cases.set(token, e);
    this.pending.expect.push({ token, reply: e.reply });
    this.schedule();
    return e;
  }

  release(token: string): void {
    if (!this.cases.delete(token)) return;
    this.pending.release.push(token);
    this.schedule();
  }

  forwardsUnder(prefixes: string[]): void {
    this.pending.forwardsUnder = prefixes;
    this.schedule();
  }

  async sync(): Promise<void> {
    const nonce = ++this.nonce;
    const synced = new Promise<void>((resolve, reject) => this.waiting.set(nonce, { resolve, reject }));
    synced.catch(() => undefined);
    await this.flush(nonce);
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(this.failure(`it did not confirm a sync within ${SYNC_MS / 1000} s`)), SYNC_MS);
    });
    try {
      await Promise.race([synced, bound]);
    } finally {
      clearTimeout(timer);
      this.waiting.delete(nonce);
    }
  }

  async suspend(): Promise<void> {
    throw new HarnessError('BAD_FLAG', 'a run attached to a `gw-conformance mock` cannot take its upstream down (other runs share it): run the outage checks without attaching');
  }
  async resume(): Promise<void> {}

  /**
   * Registers this shard at the mock's start barrier and waits until every shard has (or its
   * `timeoutMs` runs out: a harness error that names the missing shards), then until the common
   * start, moved onto this clock. Returns how long it waited and the start's wall clock.
   */
  async startTogether(r: BarrierRequest): Promise<{ waitedMs: number; registered: number; startAtWall: number }> {
    const t0 = performance.now();
    let answer: BarrierAnswer;
    try {
      // Bounded by the shard's own wait, and a round trip's grace over it (the mock answers at its end).
      const res = await request(`${this.url}${ATTACH_PATH}/${this.id}/barrier`, { method: 'POST', body: JSON.stringify(r), dispatcher: this.agent, headersTimeout: r.timeoutMs + SYNC_MS, bodyTimeout: SYNC_MS });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new HarnessError(res.statusCode === 408 ? 'NOT_READY' : 'MERGE_REFUSED', `--start-together: ${(parse(text.split('\n')[0]) as { message?: string } | null)?.message ?? `the mock answered ${res.statusCode}`}`);
      answer = JSON.parse(text) as BarrierAnswer;
    } catch (e) {
      throw e instanceof HarnessError ? e : this.failure((e as { code?: string }).code ?? (e as Error).message);
    }
    const t1 = performance.now();
    this.measured(t0, t1, answer.now);
    // The start on this clock; a timer to the moment, not a guess at how long the others take.
    const wait = Math.max(0, this.shift(answer.startAt) - performance.now());
    await new Promise((done) => setTimeout(done, wait));
    return { waitedMs: Math.round(performance.now() - t0), registered: answer.registered, startAtWall: answer.startAtWall };
  }

  /** Half the shortest round trip to the mock: how far a time moved onto this clock may be off. */
  get clockUncertaintyMs(): number {
    return this.best.rtt / 2;
  }

  /** Ends the cases still open and leaves the mock (it has ended them when this returns). */
  async detach(): Promise<void> {
    if (this.ended) return;
    await this.flush(undefined, true).catch(() => undefined);
    this.ended = 'the run detached';
    this.stream.destroy();
    await this.agent.close().catch(() => undefined);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => void this.flush().catch(() => undefined));
  }

  /** Sends what is pending (and a sync request), after every batch sent before. */
  private flush(sync?: number, detach = false): Promise<void> {
    this.scheduled = false;
    const { expect, release, forwardsUnder } = this.pending;
    this.pending = { expect: [], release: [] };
    const batches: AttachOps[] = [];
    for (let i = 0; i < expect.length; i += BATCH) batches.push({ expect: expect.slice(i, i + BATCH) });
    batches.push({ release, ...(forwardsUnder ? { forwardsUnder } : {}), ...(sync !== undefined ? { sync } : {}), ...(detach ? { detach } : {}) });
    const run = this.chain.then(async () => {
      for (const b of batches) await this.post(b);
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async post(ops: AttachOps): Promise<void> {
    if (this.ended) throw this.failure(this.ended);
    const t0 = performance.now();
    let answer: AttachAnswer;
    try {
      const res = await request(`${this.url}${ATTACH_PATH}/${this.id}`, { method: 'POST', body: JSON.stringify(ops), dispatcher: this.agent, headersTimeout: SYNC_MS, bodyTimeout: SYNC_MS });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw this.failure((parse(text.split('\n')[0]) as { message?: string } | null)?.message ?? `status ${res.statusCode}`);
      answer = JSON.parse(text) as AttachAnswer;
    } catch (e) {
      throw e instanceof HarnessError ? e : this.failure((e as { code?: string }).code ?? (e as Error).message);
    }
    this.measured(t0, performance.now(), answer.now);
    if (answer.taken.length) throw new Error(`harness bug: the mock had handed out case token ${answer.taken[0]} before (64 random bits repeated)`);
  }

  /**
   * One exchange's view of the clocks: the mock's `now` was read about halfway through it. The
   * offset is the one of the shortest round trip among the last CLOCK_WINDOW exchanges (two
   * machines' clocks drift apart over a long run; one process's do not).
   */
  private measured(t0: number, t1: number, mockNow: number): void {
    this.samples.push({ rtt: t1 - t0, offset: mockNow - (t0 + t1) / 2 });
    if (this.samples.length > CLOCK_WINDOW) this.samples.shift();
    this.best = this.samples.reduce((a, b) => (b.rtt < a.rtt ? b : a));
  }

  private readonly shift = (mockTime: number) => mockTime - this.best.offset;

  private async consume(lines: AsyncIterableIterator<string>): Promise<void> {
    try {
      for await (const line of lines) {
        const ev = parse(line);
        if (ev) this.on(ev);
      }
      this.ended ??= 'it ended the attachment (did the mock stop?)';
    } catch (e) {
      this.ended ??= `its stream broke (${(e as { code?: string }).code ?? (e as Error).message})`;
    }
    for (const w of this.waiting.values()) w.reject(this.failure(this.ended));
    this.waiting.clear();
  }

  private on(ev: AttachEvent): void {
    if (ev.type === 'hit') {
      const c = this.cases.get(ev.token);
      if (!c) return;
      const rec = fromWire(ev.rec, this.shift);
      if (rec.closedAt === undefined) this.open.set(rec.seq, rec);
      this.httpVersions[ev.rec.httpVersion] = (this.httpVersions[ev.rec.httpVersion] ?? 0) + 1;
      c.hit(rec, ev.rec.httpVersion);
    } else if (ev.type === 'sent') {
      const rec = this.open.get(ev.seq);
      if (!rec) return;
      rec.sentAt = ev.sentAt.map(this.shift);
      if (ev.closedAt !== undefined) {
        rec.closedAt = this.shift(ev.closedAt);
        this.open.delete(ev.seq);
      }
      this.cases.get(ev.token)?.notify();
    } else if (ev.type === 'idle-closed') {
      const c = this.cases.get(ev.token);
      const rec = c?.hits.find((h) => h.seq === ev.seq);
      if (rec) rec.idleClose = { at: this.shift(ev.at), by: ev.by };
      c?.notify();
    } else if (ev.type === 'unmatched') this.unmatched.push(ev.request);
    else if (ev.type === 'synced') this.waiting.get(ev.nonce)?.resolve();
  }

  private failure(why: string): HarnessError {
    return new HarnessError('TARGET_UNREACHABLE', `the running \`gw-conformance mock\` at ${this.url} stopped serving this run: ${why}`);
  }
}

function parse(line: string | undefined): AttachEvent | null {
  if (!line) return null;
  try {
    return JSON.parse(line) as AttachEvent;
  } catch {
    return null;
  }
}
