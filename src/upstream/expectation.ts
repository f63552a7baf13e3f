// One scripted case of the recording upstream, as both of its sides keep it: the upstream in
// this process (mocks/upstream/server.ts) and a run attached to a `gw-conformance mock` in
// another (remote.ts), whose hits come as events. Waiting on a case waits on those events.
import { patientTimeout } from '../core/stall.js';
import type { RecordedRequest } from './record.js';
import type { Reply } from './scenario.js';
import type { Expectation } from './upstream.js';

/** Told of what reaches a case (an attached run's session forwards it). */
export interface CaseObserver {
  hit(rec: RecordedRequest, httpVersion: string): void;
  /** The connection of `rec` closed (rec.closedAt is set; rec.sentAt is final). */
  closed(rec: RecordedRequest): void;
  /** The connection of `rec` ended its idle spell after the answer (rec.idleClose is set). */
  idleClosed(rec: RecordedRequest): void;
}

/** The hits of a case nothing reached yet: shared, frozen (hit() replaces it). */
const NO_HITS: RecordedRequest[] = Object.freeze([]) as unknown as RecordedRequest[];

export class RecordedCase implements Expectation {
  /** What reached this case, in order. A list of one to begin with: an empty list grown by push keeps room for 17, and every case under load keeps it. */
  #hits: RecordedRequest[] = NO_HITS;
  get hits(): readonly RecordedRequest[] {
    return this.#hits;
  }
  private waiters: Array<() => void> = [];
  observer?: CaseObserver;
  constructor(
    readonly token: string,
    readonly reply: Reply,
  ) {}
  hit(r: RecordedRequest, httpVersion = '1.1') {
    if (this.#hits.length) this.#hits.push(r);
    else this.#hits = [r];
    this.observer?.hit(r, httpVersion);
    this.notify();
  }
  /** The connection of one of this case's requests closed. */
  closedOne(r: RecordedRequest) {
    this.observer?.closed(r);
    this.notify();
  }
  /** The connection of one of this case's requests ended its idle spell (a reply's closeIdleMs). */
  idleClosedOne(r: RecordedRequest) {
    this.observer?.idleClosed(r);
    this.notify();
  }
  /** Something about this case changed: its waiters look again. */
  notify() {
    if (this.waiters.length === 0) return;
    for (const w of this.waiters.splice(0)) w();
  }
  private async waitFor<T>(get: () => T | null, graceMs: number): Promise<T | null> {
    const now = get();
    if (now !== null) return now;
    // Waits on the event, bounded: nothing arriving yields null. The bound does not count this
    // process's holds (up to its own length), and when it runs out it ends only after the loop's
    // next read of the sockets: an arrival a hold kept unread is seen before the bound is judged.
    await new Promise<void>((resolve) => {
      const cancel = patientTimeout(() => setImmediate(resolve), graceMs);
      this.waiters.push(() => {
        cancel();
        resolve();
      });
    });
    return get();
  }
  async closed(graceMs: number): Promise<number | null> {
    const deadline = Date.now() + graceMs;
    for (;;) {
      const v = await this.waitFor(() => this.hits[0]?.closedAt ?? null, Math.max(0, deadline - Date.now()));
      if (v !== null || Date.now() >= deadline) return v;
    }
  }
  async idleClosed(graceMs: number): Promise<NonNullable<RecordedRequest['idleClose']> | null> {
    const deadline = Date.now() + graceMs;
    for (;;) {
      const v = await this.waitFor(() => this.hits[0]?.idleClose ?? null, Math.max(0, deadline - Date.now()));
      if (v !== null || Date.now() >= deadline) return v;
    }
  }
  async received(graceMs = 1000): Promise<RecordedRequest | null> {
    return this.waitFor(() => this.hits[0] ?? null, graceMs);
  }
  async waitForHits(n: number, graceMs: number): Promise<number> {
    const deadline = Date.now() + graceMs;
    for (;;) {
      const v = await this.waitFor(() => (this.hits.length >= n ? this.hits.length : null), Math.max(0, deadline - Date.now()));
      if (v !== null || Date.now() >= deadline) return this.hits.length;
    }
  }
}
