// The `mock` command's attach endpoint: load runs in other processes (on this machine, or on
// others with `mock --attach-from`) register their cases with this recording upstream and read,
// each on its own NDJSON stream, what reached those cases (src/upstream/attach-wire.ts). Each run
// generates its own load; the mock only answers and records. A session owns its cases: its
// stream ending (the run finished, or its process died) ends them all.
import type http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { BlockList } from 'node:net';
import { performance } from 'node:perf_hooks';
import { ATTACH_PATH, toWire, type AttachAnswer, type AttachEvent, type AttachOps } from '../../src/upstream/attach-wire.js';
import type { CaseObserver } from '../../src/upstream/expectation.js';
import type { RecordedRequest } from '../../src/upstream/record.js';
import type { UnmatchedRequest } from '../../src/upstream/upstream.js';
import type { RecordingUpstream } from './server.js';
import { refuseNdjson as refuse } from '../../src/core/server.js';
import { StartBarrier } from './barrier.js';
import type { BarrierRequest } from '../../src/upstream/attach-wire.js';

/** The largest batch of operations one request may carry (the run's side sends smaller ones). */
const MAX_OPS_BYTES = 64 * 1024 * 1024;

class Session {
  /** Cases open now, and every token it ever registered (a late request of an ended case is still its). */
  readonly open = new Set<string>();
  readonly owned = new Set<string>();
  prefixes: string[] = [];
  /** Requests whose answer is still being written: what was sent of it is pushed on a sync. */
  private inFlight = new Map<number, { token: string; rec: RecordedRequest; pushed: number }>();
  constructor(
    readonly id: string,
    readonly peer: string,
    private readonly res: http.ServerResponse,
  ) {}
  send(ev: AttachEvent): void {
    if (!this.res.destroyed) this.res.write(`${JSON.stringify(ev)}\n`);
  }
  observer(token: string): CaseObserver {
    return {
      hit: (rec, httpVersion) => {
        this.inFlight.set(rec.seq, { token, rec, pushed: rec.sentAt.length });
        this.send({ type: 'hit', token, rec: toWire(rec, httpVersion) });
      },
      closed: (rec) => {
        this.inFlight.delete(rec.seq);
        this.send({ type: 'sent', token, seq: rec.seq, sentAt: rec.sentAt, closedAt: rec.closedAt });
      },
      idleClosed: (rec) => this.send({ type: 'idle-closed', token, seq: rec.seq, at: rec.idleClose!.at, by: rec.idleClose!.by }),
    };
  }
  close(): void {
    this.res.end();
  }
  /** Pushes what was written of every answer still open since the last push. */
  flushSent(): void {
    for (const [seq, f] of this.inFlight) {
      if (f.rec.sentAt.length === f.pushed) continue;
      f.pushed = f.rec.sentAt.length;
      this.send({ type: 'sent', token: f.token, seq, sentAt: f.rec.sentAt });
    }
  }
}

export interface AttachOptions {
  /** Callers allowed to attach; null: loopback only. */
  allowed: BlockList | null;
  /** Why no session may start now (another kind of run has the mock), or null. */
  busy: () => string | null;
  log: (s: string) => void;
}

export class Attachments {
  private sessions = new Map<string, Session>();
  private owners = new Map<string, Session>();
  private readonly barrier: StartBarrier;
  constructor(
    private readonly upstream: RecordingUpstream,
    private readonly opts: AttachOptions,
  ) {
    this.barrier = new StartBarrier(opts.log);
  }

  /** Runs attached now. */
  get count(): number {
    return this.sessions.size;
  }

  allows(address: string): boolean {
    const a = address.replace(/^::ffff:/, '');
    if (!this.opts.allowed) return /^(127\.|::1$)/.test(a);
    return this.opts.allowed.check(a, a.includes(':') ? 'ipv6' : 'ipv4');
  }

  /** A request that no case expects goes to the session whose ended case it names, else to every session. */
  unmatched(request: UnmatchedRequest, lateToken?: string): void {
    const owner = lateToken ? this.owners.get(lateToken) : undefined;
    for (const s of owner ? [owner] : this.sessions.values()) s.send({ type: 'unmatched', request });
  }

  handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const peer = req.socket.remoteAddress ?? '';
    if (!this.allows(peer)) return refuse(res, 403, 'BAD_FLAG', `${peer} may not attach to this mock (start it with --attach-from to allow other addresses than loopback)`);
    if (req.method !== 'POST') return refuse(res, 405, 'BAD_FLAG', 'attach with POST');
    if (req.url === ATTACH_PATH) return this.open(req, res, peer);
    const rest = req.url?.startsWith(`${ATTACH_PATH}/`) ? req.url.slice(ATTACH_PATH.length + 1) : '';
    const atBarrier = rest.endsWith('/barrier');
    const id = atBarrier ? rest.slice(0, -'/barrier'.length) : rest;
    const session = this.sessions.get(id);
    if (!session) return refuse(res, 404, 'TARGET_UNREACHABLE', `no attached run ${id} at this mock (it ended, or the mock restarted)`);
    if (atBarrier)
      return void readJson(req, 64 * 1024).then(
        (r) => this.barrier.register(session.id, session.peer, r as BarrierRequest, res),
        (e: Error) => refuse(res, 400, 'BAD_FLAG', e.message),
      );
    readJson(req, MAX_OPS_BYTES).then(
      (ops) => this.apply(session, ops as AttachOps, res),
      (e: Error) => refuse(res, 400, 'BAD_FLAG', e.message),
    );
  }

  private open(req: http.IncomingMessage, res: http.ServerResponse, peer: string): void {
    const busy = this.opts.busy();
    if (busy) return refuse(res, 409, 'PORT_IN_USE', busy);
    const session = new Session(randomUUID(), peer, res);
    this.sessions.set(session.id, session);
    res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' });
    session.send({ type: 'attached', id: session.id, now: performance.now() });
    this.opts.log(`load run attached from ${peer} (${this.sessions.size} attached)`);
    req.resume();
    res.on('close', () => this.end(session));
  }

  private apply(session: Session, ops: AttachOps, res: http.ServerResponse): void {
    const taken: string[] = [];
    for (const { token, reply } of ops.expect ?? []) {
      const e = this.upstream.expectAs(token, reply);
      if (!e) {
        taken.push(token);
        continue;
      }
      e.observer = session.observer(token);
      session.open.add(token);
      session.owned.add(token);
      this.owners.set(token, session);
    }
    for (const token of ops.release ?? []) if (session.open.delete(token)) this.upstream.release(token);
    if (ops.forwardsUnder) {
      session.prefixes = ops.forwardsUnder;
      this.prefixesChanged();
    }
    if (ops.sync !== undefined) {
      session.flushSent();
      session.send({ type: 'synced', nonce: ops.sync });
    }
    if (ops.detach) this.end(session);
    const answer: AttachAnswer = { now: performance.now(), taken };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  }

  private end(session: Session): void {
    if (!this.sessions.delete(session.id)) return;
    this.barrier.leave(session.id);
    session.close();
    for (const token of session.open) this.upstream.release(token);
    for (const token of session.owned) this.owners.delete(token);
    this.prefixesChanged();
    this.opts.log(`load run from ${session.peer} detached (${this.sessions.size} attached)`);
  }

  private prefixesChanged(): void {
    this.upstream.forwardsUnder([...new Set([...this.sessions.values()].flatMap((s) => s.prefixes))]);
  }
}


function readJson(req: http.IncomingMessage, max: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        reject(new Error(`the operations are over ${max} bytes`));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new Error('the operations are not JSON'));
      }
    });
  });
}
