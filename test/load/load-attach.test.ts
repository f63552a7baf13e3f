// Load runs attached to a `gw-conformance mock`'s recording upstream (src/upstream/remote.ts on
// the run's side, mocks/upstream/attach.ts on the mock's), over real HTTP on loopback: what
// reaches a case comes back with its times on the run's clock, stream timings come after a sync,
// late and stray requests go to the right runs, a run's end ends its cases, a mock that goes
// away is one line; and the load checks whose verdicts read the upstream's records (hits, stream
// timings) catch their faults through the wire as they do in one process (test/detection/load.json).
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { Attachments } from '../../mocks/upstream/attach.js';
import { RecordingUpstream } from '../../mocks/upstream/server.js';
import { attachFrom } from '../../cli/mock/action.js';
import { HarnessError } from '../../src/core/errors.js';
import { RemoteUpstream } from '../../src/upstream/remote.js';
import { JSON_HEADERS, SSE_HEADERS } from '../../src/upstream/scenario.js';
import type { RunReport } from '../../src/report/shared/types.js';
import { LOAD_CHECKS } from '../../suites/load/index.js';
import { freePort } from '../helpers/cli.js';
import { cliInProcess, startInProcess } from '../helpers/in-process.js';
import { throughReference, type Flags } from '../helpers/load-suite.js';

const stops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const s of stops.reverse()) await s().catch(() => undefined);
});

/** A recording upstream with its attach endpoint, as `gw-conformance mock` serves it. */
async function mock(allowed: string[] = [], busy: () => string | null = () => null) {
  const upstream = new RecordingUpstream();
  const stray: string[] = [];
  const attachments = new Attachments(upstream, { allowed: attachFrom(allowed), busy, log: () => {} });
  upstream.control = (req, res) => attachments.handle(req, res);
  upstream.onUnmatched = (u, late) => {
    stray.push(u.reason);
    attachments.unmatched(u, late);
  };
  await upstream.start('127.0.0.1', 0);
  stops.push(() => upstream.stop());
  return { upstream, attachments, stray };
}

async function attach(url: string) {
  const r = await RemoteUpstream.attach(url);
  stops.push(() => r.detach());
  return r;
}

const post = (url: string, text: string) => request(`${url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text }) });

describe('the attach wire', () => {
  it('a hit comes back with its record, its times on this clock, and a stream\'s timings after a sync', async () => {
    const m = await mock();
    const remote = await attach(m.upstream.url);
    const json = remote.expect({ kind: 'json', status: 200, headers: JSON_HEADERS, body: '{"ok":1}' });
    const sse = remote.expect({ kind: 'sse', status: 200, headers: SSE_HEADERS, frames: [0, 1, 2].map((i) => ({ gapMs: 30, data: `data: ${i}\n\n` })) });
    await remote.sync();
    // The offset moves only on an exchange with the mock: each time is moved with one of those read here.
    let worst = remote.clockUncertaintyMs;
    const read = () => (worst = Math.max(worst, remote.clockUncertaintyMs));
    const a = await post(m.upstream.url, `${json.token} hello`);
    expect(await a.body.text()).toBe('{"ok":1}');
    const b = await post(m.upstream.url, `${sse.token} stream`);
    // Mid-stream: a sync brings what was written so far (the first frame was, it has arrived here).
    const chunks = b.body[Symbol.asyncIterator]();
    await chunks.next();
    await remote.sync();
    read();
    expect(sse.hits[0].sentAt.length).toBeGreaterThanOrEqual(1);
    expect(sse.hits[0].closedAt).toBeUndefined();
    while (!(await chunks.next()).done);
    await remote.sync();
    read();
    // The same request as the mock recorded it, and as the attached run sees it.
    const here = json.hits[0];
    const there = m.upstream['open'].get(json.token)!.hits[0];
    expect(json.hits).toHaveLength(1);
    expect(here.body.toString()).toBe(there.body.toString());
    expect(here.rawHeaders).toEqual(there.rawHeaders);
    expect(here.bodySha256).toBe(there.bodySha256);
    // One process, one clock: the times differ by at most the offset's uncertainty.
    const off = worst + 1e-6;
    expect(Math.abs(here.receivedAt - there.receivedAt)).toBeLessThanOrEqual(off);
    const s = sse.hits[0];
    const st = m.upstream['open'].get(sse.token)!.hits[0];
    expect(s.sentAt).toHaveLength(3);
    for (const [i, t] of s.sentAt.entries()) expect(Math.abs(t - st.sentAt[i])).toBeLessThanOrEqual(off);
    expect(remote.httpVersions).toEqual({ '1.1': 2 });
    // The connection's close comes as an event; closed() waits on it.
    expect(await sse.closed(5000)).not.toBeNull();
  });

  it('a late request goes to the run whose case it names, a request with no token to every run; detaching ends its cases', async () => {
    const m = await mock();
    const [one, two] = [await attach(m.upstream.url), await attach(m.upstream.url)];
    const e = one.expect({ kind: 'json', status: 200, headers: JSON_HEADERS, body: '{}' });
    const kept = two.expect({ kind: 'json', status: 200, headers: JSON_HEADERS, body: '{}' });
    await Promise.all([one.sync(), two.sync()]);
    one.release(e.token);
    await one.sync();
    expect((await post(m.upstream.url, `${e.token} late`)).statusCode).toBe(404);
    expect((await post(m.upstream.url, 'no token')).statusCode).toBe(404);
    await Promise.all([one.sync(), two.sync()]);
    expect(one.unmatched.map((u) => u.reason)).toEqual([expect.stringMatching(/had already ended/), 'no case token in body, header or URL']);
    expect(two.unmatched.map((u) => u.reason)).toEqual(['no case token in body, header or URL']);
    expect(m.attachments.count).toBe(2);
    await two.detach();
    // The mock ended the detached run's case: a request for it is now a late one.
    expect((await post(m.upstream.url, `${kept.token} after`)).statusCode).toBe(404);
    expect(m.stray.at(-1)).toMatch(new RegExp(`case ${kept.token} had already ended`));
    expect(m.attachments.count).toBe(1);
  });

  it('a mock that goes away fails the next sync in one line, with no wait for a time-out', async () => {
    const m = await mock();
    const remote = await attach(m.upstream.url);
    await m.upstream.stop();
    const err = await remote.sync().then(() => null, (x: unknown) => x);
    expect(err).toBeInstanceOf(HarnessError);
    expect((err as HarnessError).message).toMatch(/^the running `gw-conformance mock` at http:\/\/127\.0\.0\.1:\d+ stopped serving this run: /);
  });

  it('--attach-from: a caller outside the blocks is refused in the mock\'s own words; bad blocks are one line', async () => {
    const m = await mock(['127.0.0.2/32']);
    expect(m.attachments.allows('127.0.0.2')).toBe(true);
    expect(m.attachments.allows('127.0.0.1')).toBe(false);
    const err = await RemoteUpstream.attach(m.upstream.url).then(() => null, (x: unknown) => x);
    expect((err as HarnessError).message).toMatch(/^attaching to the mock at http:\/\/127\.0\.0\.1:\d+: 127\.0\.0\.1 may not attach to this mock \(start it with --attach-from/);
    expect(attachFrom(['10.0.0.0/8,::1'])!.check('10.2.3.4')).toBe(true);
    for (const bad of ['10.0.0.0/33', 'example.com', '10.0.0.0/8/1', '::1/129'])
      expect(() => attachFrom([bad])).toThrow(/^--attach-from: expected an address or a CIDR block such as 10\.0\.0\.0\/8, got /);
  });

  it('a mock serving a run of another profile refuses to attach, in its own words', async () => {
    const m = await mock([], () => 'the mock is serving a run of another profile; attach when it has finished');
    await expect(RemoteUpstream.attach(m.upstream.url)).rejects.toThrow(/^attaching to the mock at http:\/\/127\.0\.0\.1:\d+: the mock is serving a run of another profile; attach when it has finished$/);
  });

  it('nothing at the address: one line naming it', async () => {
    const m = await mock();
    const url = m.upstream.url;
    await m.upstream.stop();
    await expect(RemoteUpstream.attach(url)).rejects.toThrow(/^cannot attach to a `gw-conformance mock` at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)$/);
  });
});

const matrix = JSON.parse(readFileSync(new URL('../detection/load.json', import.meta.url), 'utf8')) as { flags: Record<string, Flags>; faults: Record<string, Record<string, string>> };

/** A load run of the suite on an attached upstream, through the reference gateway (with a fault). */
async function attachedRun(fault: string | undefined, kind: 'load' | 'limit', only?: string[]): Promise<RunReport> {
  const m = await mock();
  const remote = await attach(m.upstream.url);
  try {
    return await throughReference(remote, fault, { ...matrix.flags[kind], ...(only ? { only } : {}) });
  } finally {
    await remote.detach();
  }
}

const notPassed = (r: RunReport) => Object.fromEntries(r.results.filter((x) => x.outcome !== 'pass' && x.outcome !== 'skip').map((x) => [x.id, x.outcome]));
const why = (r: RunReport) => r.results.filter((x) => x.outcome !== 'pass').map((x) => `${x.id}: ${x.outcome}: ${x.message}`).join('\n');

describe('the load checks on an attached upstream', () => {
  it('the clean reference gateway passes every load check', async () => {
    const r = await attachedRun(undefined, 'load');
    expect(r.results.map((x) => x.id).sort()).toEqual(LOAD_CHECKS.map((c) => c.id).sort());
    expect(notPassed(r), why(r)).toEqual({});
    // Skipped: the two limit checks (no declared limit), the memory check (the gateway runs in this process, not launched) and the frontier (no --load-frontier).
    expect(r.results.filter((x) => x.outcome !== 'pass').map((x) => x.id).sort()).toEqual(['load.limit.refused', 'load.limit.retry-after', 'load.perf.frontier', 'load.resources.growth']);
  }, 120_000);

  // Each reads another part of the wire: hits (cross-talk, retries counted), stream timings, hits of refused requests.
  for (const fault of ['load-model-cache', 'load-buffer-when-many', 'load-retry-over-bound', 'limit-forward-first'])
    it(`fault ${fault} fails its checks as in one process`, async () => {
      const { runs: kind, ...want } = matrix.faults[fault];
      const r = await attachedRun(fault, kind as 'load' | 'limit', Object.keys(want));
      expect(notPassed(r), why(r)).toEqual(want);
    }, 120_000);
});

describe('bad input to --attach and --attach-from: one line, exit 2, before anything starts', () => {
  const target = ['--target', 'http://127.0.0.1:9'];
  for (const [args, line] of [
    [['run', '--profile', 'load', ...target, '--attach', 'not a url'], /^--attach: expected an http:\/\/ or https:\/\/ URL, got "not a url"$/],
    [['run', '--profile', 'load', ...target, '--attach', 'https://127.0.0.1:9'], /^--attach: the mock's control endpoint is plain http \(got https:\/\/\)$/],
    [['run', ...target, '--attach', 'http://127.0.0.1:9'], /^--attach is for the load profile \(got --profile default\)/],
    [['run', '--profile', 'load', ...target, '--attach', 'http://127.0.0.1:9'], /^cannot attach to a `gw-conformance mock` at http:\/\/127\.0\.0\.1:9 \(ECONNREFUSED\)$/],
    [['run', '--profile', 'load', ...target, '--attach', 'http://127.0.0.1:9', '--upstream-tls'], /^--upstream-tls with an attached run: /],
    [['mock', '--listen', '127.0.0.1:0', '--attach-from', '10.0.0.0/40'], /^--attach-from: expected an address or a CIDR block such as 10\.0\.0\.0\/8, got "10\.0\.0\.0\/40"$/],
  ] as const)
    it(args.join(' '), async () => {
      const r = await cliInProcess([...args]);
      expect(r.code, r.stdout + r.stderr).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^gw-conformance: error GWC-(BAD-FLAG|TARGET-UNREACHABLE): /);
      expect(lines[0].replace(/^gw-conformance: error GWC-[A-Z-]+: /, '')).toMatch(line);
    });
});

describe('the mock command: attached load runs and runs of other profiles do not share it', () => {
  it('while a load run is attached, a default run on its address is refused in one line, and attaches again once it left', async () => {
    const port = await freePort();
    const mock = startInProcess(['mock', '--listen', `127.0.0.1:${port}`]);
    stops.push(async () => void (await mock.stop()));
    await mock.line(/listening/);
    const url = `http://127.0.0.1:${port}`;
    const remote = await RemoteUpstream.attach(url);
    const r = await cliInProcess(['run', '--target', 'http://127.0.0.1:9', '--upstream-listen', `127.0.0.1:${port}`]);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr.trim()).toBe('gw-conformance: error GWC-PORT-IN-USE: the mock is already serving 1 attached load run; wait for it to finish, or start another mock');
    await remote.detach();
    const again = await attach(url);
    expect(again.url).toBe(url);
  });
});
