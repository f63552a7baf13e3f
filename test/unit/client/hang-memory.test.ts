// The run-level bound on a hanging gateway (src/client/answer.ts HangMemory), on its own clock:
// the full budget until the gateway leaves answers unfinished, the short one while it hangs, one
// allowance for the whole run, then the probe budget; and one answer's whole budget (status line,
// headers and body together) against a gateway that drips its answer; and a check's end cuts its
// answers (a check ended at its limit does not go on reading an endless stream behind the run).
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { answerKindOf, asksStream, HangMemory, HUNG_AFTER, TimeLimitReached } from '../../../src/client/answer.js';
import { GatewayClient, GatewayTimeoutError } from '../../../src/client/gateway.js';

describe('HangMemory: the run has one allowance for a hanging gateway', () => {
  it('full budget, then short ones within the allowance, then the probe budget; a completed answer restores the full one', () => {
    const m = new HangMemory(20_000);
    expect([m.shortMs, m.probeMs, m.allowanceMs]).toEqual([2500, 313, 20_000]);
    const ms = (own: number, now: number) => m.take(own, now).ms;
    expect(ms(35_000, 0)).toBe(35_000);
    // Cut off after most of the limit, HUNG_AFTER times: taken for hanging at t = 20 s.
    for (let i = 0; i < HUNG_AFTER; i++) m.ended(false, 20_000, 20_000);
    expect(m.hanging).toBe(true);
    expect(m.brokenAt).toBe(20_000);
    expect(m.take(35_000, 20_000)).toEqual({ ms: 2500, kind: 'short' });
    // The allowance runs out: what is left of it, then the probe budget for one answer at a time.
    expect(ms(35_000, 39_000)).toBe(1000);
    expect(m.take(35_000, 39_800)).toEqual({ ms: 313, kind: 'probe' });
    expect(m.take(35_000, 39_900)).toEqual({ ms: 0, kind: 'none' });
    m.ended(false, 313, 40_113, true);
    expect(m.take(35_000, 400_000)).toEqual({ ms: 313, kind: 'probe' });
    // A probe whose end was never told holds its slot only for its budget.
    expect(ms(35_000, 400_100)).toBe(0);
    expect(ms(35_000, 400_313)).toBe(313);
    // The allowance is the run's: a hundred more cut-off answers do not renew it.
    for (let i = 0; i < 100; i++) m.ended(false, 313, 500_000 + i, true);
    expect(m.brokenAt).toBe(20_000);
    expect(ms(35_000, 600_000)).toBe(313);
    m.ended(true, 5, 600_005, true);
    expect(ms(35_000, 600_010)).toBe(35_000);
  });

  it('counts streamed answers and whole ones apart: endless streams between quick answers are taken for hanging', () => {
    const m = new HangMemory(20_000);
    // The gateway answers every whole request at once and never ends a stream.
    for (let i = 0; i < 3; i++) {
      m.ended(true, 5, i * 1000, false, 'whole');
      m.ended(false, 20_000, i * 1000 + 10, false, 'stream');
    }
    expect(m.hangingFor('stream')).toBe(true);
    expect(m.take(20_000, 3000, 'stream')).toEqual({ ms: 2500, kind: 'short' });
    expect(m.take(20_000, 3000, 'whole')).toEqual({ ms: 20_000, kind: 'own' });
    // A stream that completes restores streams their full budget.
    m.ended(true, 40, 3100, false, 'stream');
    expect(m.take(20_000, 3200, 'stream')).toEqual({ ms: 20_000, kind: 'own' });
  });

  it('a kind that never completed an answer hangs with the other; one that did keeps its budget', () => {
    const silent = new HangMemory(20_000);
    for (let i = 0; i < HUNG_AFTER; i++) silent.ended(false, 20_000, 20_000, false, 'whole');
    expect(silent.take(20_000, 20_000, 'stream').kind).toBe('short');
    const streamsFine = new HangMemory(20_000);
    streamsFine.ended(true, 30, 10, false, 'stream');
    for (let i = 0; i < HUNG_AFTER; i++) streamsFine.ended(false, 20_000, 20_000, false, 'whole');
    expect(streamsFine.take(20_000, 20_000, 'whole').kind).toBe('short');
    expect(streamsFine.take(20_000, 20_000, 'stream').kind).toBe('own');
  });

  it('an answer is counted as what came: a stream asked for that came whole does not forgive the streams', () => {
    const m = new HangMemory(20_000);
    for (let i = 0; i < HUNG_AFTER; i++) m.ended(false, 20_000, i, false, 'stream');
    // A streamed request answered at once with a JSON error completes a whole answer.
    m.ended(true, 5, 10, false, answerKindOf('application/json'));
    expect(m.take(20_000, 20, 'stream').kind).toBe('short');
    m.ended(true, 900, 30, false, answerKindOf('text/event-stream; charset=utf-8'));
    expect(m.take(20_000, 40, 'stream').kind).toBe('own');
    expect(answerKindOf('application/vnd.amazon.eventstream')).toBe('stream');
  });

  it('tells a streamed request by its path or its body', () => {
    expect(asksStream('POST', '/v1/messages', '{"model":"m","stream": true}')).toBe('stream');
    expect(asksStream('POST', '/v1beta/models/g:streamGenerateContent?alt=sse', undefined)).toBe('stream');
    expect(asksStream('POST', '/model/m/invoke-with-response-stream', Buffer.from('{}'))).toBe('stream');
    expect(asksStream('POST', '/v1/messages', '{"model":"m","stream":false}')).toBe('whole');
    expect(asksStream('GET', '/v1/models', undefined)).toBe('whole');
  });

  it('answers cut off early (a check that left on purpose) do not make the gateway hanging', () => {
    const m = new HangMemory(20_000);
    for (let i = 0; i < 10; i++) m.ended(false, 300, i);
    expect(m.hanging).toBe(false);
    expect(m.brokenAt).toBeNull();
    expect(m.take(20_000, 10).ms).toBe(20_000);
  });

  it('answers whose check stopped waiting by choice are not counted, however long they lasted; cut at the time limit, they are', () => {
    const m = new HangMemory(20_000);
    for (let i = 0; i < 10; i++) m.ended(false, 20_000, i, false, 'whole', true);
    expect(m.hanging).toBe(false);
    for (let i = 0; i < HUNG_AFTER; i++) m.ended(false, 20_000, 20 + i, false, 'whole', false);
    expect(m.hanging).toBe(true);
  });

  it('the wait a hanging gateway costs the run, four answers at a time, stays bounded however many checks there are', () => {
    // Answers four at a time (the default concurrency), each cut at its budget: the run's clock at the end.
    const runMs = (answers: number) => {
      const m = new HangMemory(20_000);
      const ends = [0, 0, 0, 0];
      for (let i = 0; i < answers; i++) {
        const lane = ends.indexOf(Math.min(...ends));
        const now = ends[lane];
        const { ms } = m.take(20_000, now);
        ends[lane] = now + ms;
        // Told at once, on the clock of its end; the probe's slot then lasts its budget.
        m.ended(false, ms, now + ms);
      }
      return Math.max(...ends);
    };
    // Before, each answer after the first two cost the short budget: 600 answers, 600 / 4 x 2.5 s.
    expect(runMs(600)).toBeLessThanOrEqual(runMs(100) + 20_000);
    expect(runMs(6000)).toBeLessThanOrEqual(runMs(100) + 20_000);
  });
});

describe('one budget for the whole answer', () => {
  const servers: net.Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
  });

  it('an answer dripped a byte at a time (undici\'s idle time-outs never fire) is cut at the budget counted from its request', async () => {
    const sockets = new Set<net.Socket>();
    const s = net.createServer((c) => {
      sockets.add(c);
      c.on('error', () => undefined);
      c.once('data', () => {
        c.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n');
        const t = setInterval(() => (c.destroyed ? clearInterval(t) : c.write('x')), 50);
        c.on('close', () => clearInterval(t));
      });
    });
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const gw = new GatewayClient(`http://127.0.0.1:${(s.address() as net.AddressInfo).port}`, { token: 'tok-budget-1', timeoutMs: 1500 });
    const t0 = performance.now();
    const e = (await gw.send({ path: '/v1/messages' }).catch((x: unknown) => x)) as GatewayTimeoutError;
    const took = performance.now() - t0;
    for (const c of sockets) c.destroy();
    await gw.close();
    expect(e).toBeInstanceOf(GatewayTimeoutError);
    expect(e.message).toMatch(/no complete answer within 1500 ms of the request, the budget of one answer \(headers, informational answers and body together\); status 200 after \d+ ms, then \d+ body bytes/);
    expect(e.arrived!.bytes).toBeGreaterThan(0);
    expect(took).toBeGreaterThanOrEqual(1450);
    // The gateway would drip for 5000 s: the budget ended it, not the body.
    expect(took).toBeLessThan(10_000);
  });
});

describe('which cut answers count toward a hanging gateway', () => {
  /** A gateway that takes every request and never answers; HUNG_AFTER requests to it, each cut after 900 ms (of a 1000 ms limit) by `cut`. */
  async function cutTwice(cut: (check: AbortController, own: AbortController) => void): Promise<boolean> {
    const sockets = new Set<net.Socket>();
    const s = net.createServer((c) => {
      sockets.add(c);
      c.on('error', () => undefined);
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const gw = new GatewayClient(`http://127.0.0.1:${(s.address() as net.AddressInfo).port}`, { token: 'tok-cut-by', timeoutMs: 1000 });
    for (let i = 0; i < HUNG_AFTER; i++) {
      const check = new AbortController();
      const own = new AbortController();
      const view: GatewayClient = Object.create(gw, { checkSignal: { value: check.signal }, answerLimitMs: { value: 60_000 } });
      const t = setTimeout(() => cut(check, own), 900);
      await view.send({ path: '/v1/messages', signal: own.signal }).catch(() => undefined);
      clearTimeout(t);
    }
    const hanging = (gw as unknown as { conn: { hangs: HangMemory } }).conn.hangs.hanging;
    for (const c of sockets) c.destroy();
    await gw.close();
    await new Promise((r) => s.close(r));
    return hanging;
  }

  it("the check's own shorter wait (its request's signal) and the check's end are not the gateway hanging", { timeout: 15_000 }, async () => {
    expect(await cutTwice((_, own) => own.abort())).toBe(false);
    expect(await cutTwice((check) => check.abort())).toBe(false);
  });

  it("the check's time limit (the runner aborts with TimeLimitReached) is", { timeout: 15_000 }, async () => {
    expect(await cutTwice((check) => check.abort(new TimeLimitReached(1000)))).toBe(true);
    // Passed on through a wait of the check's own (suites/shared/shape.ts withBound passes the reason on).
    expect(await cutTwice((check, own) => { check.signal.addEventListener('abort', () => own.abort(check.signal.reason)); check.abort(new TimeLimitReached(1000)); })).toBe(true);
  });
});

describe("a check's end cuts its answers", () => {
  it('once the check has ended (the runner aborts its signal), its answer in progress is cut and a later request is not sent', { timeout: 15_000 }, async () => {
    const sockets = new Set<net.Socket>();
    let requests = 0;
    let arrived!: () => void;
    const first = new Promise<void>((r) => (arrived = r));
    const s = net.createServer((c) => {
      sockets.add(c);
      c.on('error', () => undefined);
      c.on('data', () => {
        requests++;
        // An endless stream: only the check's end stops it (its budget is a minute).
        c.write('HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n');
        const t = setInterval(() => (c.destroyed ? clearInterval(t) : c.write('6\r\ndata:\n\r\n')), 20);
        c.on('close', () => clearInterval(t));
        arrived();
      });
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const gw = new GatewayClient(`http://127.0.0.1:${(s.address() as net.AddressInfo).port}`, { token: 'tok-check-end', timeoutMs: 60_000 });
    const checkEnd = new AbortController();
    const view: GatewayClient = Object.create(gw, { checkSignal: { value: checkEnd.signal } });
    const answer = view.send({ path: '/v1/messages' }).then(
      () => 'completed',
      () => 'cut',
    );
    await first;
    checkEnd.abort();
    expect(await answer).toBe('cut');
    expect(await view.send({ path: '/v1/messages' }).then(() => 'completed', () => 'cut')).toBe('cut');
    for (const c of sockets) c.destroy();
    await gw.close();
    await new Promise((r) => s.close(r));
    expect(requests).toBe(1);
  });
});
