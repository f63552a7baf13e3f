// Bounds of the gateway's time that must not count this process's holds, the second part (the
// first is test/timing/held-process.test.ts): the probes' 3 s, ERR-RECOVER-1's 5 s, SSE-ABORT-1's 2 s and
// the telemetry collector's wait for a span, and a wait for what reached the recording upstream. Each hold is injected with a synchronous busy-wait at
// the moment it did harm; each slow gateway is a scripted delay with this process free.
import net from 'node:net';
import { once as arrival } from 'node:events';
import { describe, expect, it } from 'vitest';
import { OtlpCollector } from '../../mocks/otlp/collector.js';
import headRoot from '../../suites/errors/errors.probe.head-root.js';
import recovers from '../../suites/errors/errors.upstream.recovers.js';
import cancels from '../../suites/streaming/streaming.abort.cancels-upstream.js';
import { closers, hold, relayed } from '../helpers/held.js';
import { RecordingUpstream } from '../../mocks/upstream/server.js';
import { JSON_HEADERS } from '../../src/upstream/scenario.js';

describe('a probe\'s 3 s bound counts the gateway\'s silence, not this process\'s holds (errors.probe.head-root)', () => {
  it('this process held past 3 s as the first probe\'s answer comes back: pass', async () => {
    let held = false;
    const v = await headRoot.run(
      await relayed((method, _, passOn) => {
        if (method === 'HEAD' && !held) (held = true), hold(3300);
        passOn();
      }),
    );
    expect([v.ok, v.message]).toEqual([true, expect.stringMatching(/^HEAD \/ answered \d+ in \d+ ms.*; a messages request after them got 200$/)]);
  });

  it('a gateway that keeps a probe\'s answer 4 s (this process free meanwhile): fail', async () => {
    let slow = false;
    const v = await headRoot.run(await relayed((method, _, passOn) => (method === 'HEAD' && !slow ? ((slow = true), setTimeout(passOn, 4000)) : passOn())));
    expect([v.ok, v.message]).toEqual([false, expect.stringMatching(/^HEAD \/(api\/hello)? got no answer: nothing within 3000 ms$/)]);
  });
});

describe('ERR-RECOVER-1 judges the gateway\'s time to serve again, not this process\'s holds', () => {
  it('this process held past 5 s as the first answer after the outage comes back: the outage made again, pass', async () => {
    let held = false;
    const v = await recovers.run(
      await relayed((method, status, passOn) => {
        if (method === 'POST' && status === 200 && !held) (held = true), hold(5500);
        passOn();
      }),
    );
    expect([v.ok, v.message]).toEqual([true, expect.stringMatching(/^serving again \d+ ms after the upstream was back \(\d+ probes?\) \(the outage made 2 times/)]);
  });

  it('a gateway that answers its first success after the outage 6 s late (this process free meanwhile): warn', async () => {
    let first: number | undefined;
    const v = await recovers.run(
      await relayed((method, status, passOn) => {
        if (method !== 'POST' || status !== 200) return passOn();
        first ??= performance.now();
        setTimeout(passOn, Math.max(0, first + 6000 - performance.now()));
      }),
    );
    expect([v.ok, v.message]).toEqual([false, expect.stringMatching(/^the gateway served again only \d+ ms after the upstream was back/)]);
  });
});

describe('SSE-ABORT-1 judges the gateway\'s time to cancel the upstream, not this process\'s holds', () => {
  const passOn = (_: string, __: number, go: () => void) => go();

  it('this process held 2.5 s just as the client left: measured again, pass', async () => {
    let held = false;
    const v = await cancels.run(await relayed(passOn, (goOn) => (!held && ((held = true), hold(2500)), goOn())));
    expect([v.ok, v.message]).toEqual([true, expect.stringMatching(/^the upstream request closed \d+ ms after the client disconnected \(measured 2 times/)]);
  });

  it('a gateway that closes the upstream request 3 s after the client left (this process free meanwhile): warn', async () => {
    const v = await cancels.run(await relayed(passOn, (goOn) => setTimeout(goOn, 3000)));
    expect([v.ok, v.message]).toEqual([false, expect.stringMatching(/^the upstream request closed \d+ ms after the client disconnected$/)]);
  });
});

describe('the telemetry collector\'s wait for a span counts the gateway\'s silence, not this process\'s holds (APP-TEL, APP-SPEND-4)', () => {
  const span = JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'gw' }, spans: [{ traceId: '0123456789abcdef0123456789abcdef', spanId: '0123456789abcdef', name: 'chat', kind: 2, startTimeUnixNano: '1', endTimeUnixNano: '2', attributes: [] }] }] }] });
  const request = (host: string) => `POST /v1/traces HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(span)}\r\nconnection: close\r\n\r\n${span}`;

  /** A collector, a connection to it, and the wait for its first span (1 s): `send` writes the export. */
  async function exporting() {
    const c = new OtlpCollector();
    await c.start();
    const { host, port } = new URL(c.url);
    const sock = net.connect(Number(port), '127.0.0.1');
    await arrival(sock, 'connect');
    sock.on('error', () => undefined);
    closers.push(() => c.stop(), async () => sock.destroy());
    return { waiting: c.waitFor(() => c.spans.length, 1000), send: () => sock.write(request(host)) };
  }

  it('the export written just before this process is held past the wait\'s 1 s: the span is seen', async () => {
    const { waiting, send } = await exporting();
    send();
    hold(1500);
    expect(await waiting).toBe(1);
  });

  it('an export that comes only after the wait has given up: no span, and the wait ends on its own', async () => {
    const { waiting, send } = await exporting();
    // Sent once the wait has ended, not at a fixed moment: on a loaded machine the wait's 1 s of
    // the collector's silence may last longer than any fixed delay (it does not count holds).
    const seen = await waiting;
    send();
    expect(seen).toBeUndefined();
  });
});

describe('a wait for what reached the recording upstream counts the gateway\'s silence, not this process\'s holds', () => {
  it('the request came while this process was held past the grace: it is found, not "nothing arrived"', async () => {
    const up = new RecordingUpstream();
    await up.start('127.0.0.1', 0);
    closers.push(() => up.stop());
    const e = up.expect({ kind: 'json', status: 200, headers: JSON_HEADERS, body: '{}' });
    const socket = net.connect(Number(new URL(up.url).port), '127.0.0.1');
    closers.push(async () => socket.destroy());
    await arrival(socket, 'connect');
    const waited = e.received(300);
    const body = `{"text":"${e.token}"}`;
    socket.write(`POST /v1/messages HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
    // The request reaches the upstream's socket during the hold; the grace has run out by its end.
    hold(800);
    expect((await waited)?.token).toBe(e.token);
  });

  it('nothing sent: the grace ends it (null)', async () => {
    const up = new RecordingUpstream();
    await up.start('127.0.0.1', 0);
    closers.push(() => up.stop());
    expect(await up.expect({ kind: 'json', status: 200, headers: JSON_HEADERS, body: '{}' }).received(50)).toBeNull();
  });
});
