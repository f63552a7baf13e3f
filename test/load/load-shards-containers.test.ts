// Four load shards as four containers on one host (bench/shard-containers.ts: the real container
// runtime, node and the built harness bind-mounted, --network host), each attached to one
// `gw-conformance mock` on the host's loopback, started one after another and held at the mock's
// start barrier (--start-together) until the last has registered. Asserted by the order of
// events, never by how far apart they were (that is `npm run bench:barrier`'s figure): the mock
// saw the four register one by one before it opened, each shard was told the same start, and no
// shard's first load request came before the barrier opened, by the host's one clock. Then
// merge-reports accepts the four and refuses a set with a shard of other load settings.
// Needs docker and the image gwc-nginx:bookworm: skipped with the reason without them, unless
// GWC_REQUIRE_DOCKER=1 (CI, .ci/run), where it fails.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serveCli, type Served } from '../../bench/serve.js';
import { containersUnavailable, shardContainer, stopShardContainers, type ShardRun } from '../../bench/shard-containers.js';
import { START_LEAD_MS } from '../../mocks/upstream/barrier.js';
import type { RunReport } from '../../src/report/shared/types.js';
import { cli, freePort } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/in-process.js';

const required = process.env.GWC_REQUIRE_DOCKER === '1';
const unavailable = containersUnavailable();
const SHARDS = 4;
/** Each step waits at most this long for a line: a container's start and a shard's calibration take seconds; this bounds a hang, it times nothing. */
const LINE_WAIT_MS = 240_000;

const started: Served[] = [];
afterAll(() => {
  stopShardContainers();
  for (const p of started) p.stop();
});

/** A long-running CLI command on the host (the mock, the gateway). */
async function host(args: string[]): Promise<Served> {
  const s = await serveCli(args, LINE_WAIT_MS);
  started.push(s);
  return s;
}

describe('load shards as containers on one host (docker, --network host)', () => {
  it('four shard containers started apart register at the barrier, start after the last one, and merge; a mixed set is refused', { timeout: 900_000 }, async (ctx) => {
    if (unavailable && !required) return ctx.skip(`shards as containers need docker: ${unavailable}`);
    if (unavailable) expect.fail(`docker and the image are required (GWC_REQUIRE_DOCKER=1): ${unavailable}`);
    const mock = await host(['mock', '--listen', `127.0.0.1:${await freePort()}`]);
    const gw = await host(['reference', '--listen', `127.0.0.1:${await freePort()}`, '--upstream', mock.url]);
    const dir = mkdtempSync(join(tmpdir(), 'gwc-shard-containers-'));
    const load = ['--profile', 'load', '--only', 'load.concurrency.attribution', '--load-rate', '20', '--load-duration-s', '1', '--load-requests', '20', '--load-clients', '2', '--seed', '5', '--reporter', 'json'];
    const args = (i: number) => ['--target', gw.url, '--attach', mock.url, '--shard', `${i}/${SHARDS}`, '--start-together', '600', ...load, '--out', join(dir, `s${i}`)];
    // One container after another: each starts only once the one before waits at the barrier.
    const runs: Array<Promise<ShardRun>> = [];
    for (let i = 1; i <= SHARDS; i++) {
      runs.push(shardContainer(i, args(i), dir, LINE_WAIT_MS * 2));
      if (i < SHARDS) await mock.until(/start barrier: shard \d\/4 from 127\.0\.0\.1 registered/, i, LINE_WAIT_MS);
    }
    const done = await Promise.all(runs);
    for (const r of done) expect([0, 1], `${r.name}: ${r.output}`).toContain(r.code);
    // The mock: four registrations, in the order the containers started, and only then the opening.
    const said = await mock.until(/start barrier: all 4 shards registered/, 1, LINE_WAIT_MS);
    const events = said.split('\n').flatMap((l) => l.match(/start barrier: .*/) ?? []);
    expect(events).toEqual([1, 2, 3, 4].map((i) => `start barrier: shard ${i}/4 from 127.0.0.1 registered (${i} of 4)`).concat([`start barrier: all 4 shards registered; they start in ${START_LEAD_MS} ms`]));
    const reports = [1, 2, 3, 4].map((i) => JSON.parse(readFileSync(join(dir, `s${i}`, 'report.json'), 'utf8')) as RunReport);
    const startAt = reports[0].load!.start!.startAt;
    // The barrier opened START_LEAD_MS before the common start it gave, after the last registration.
    const opened = Date.parse(startAt) - START_LEAD_MS;
    for (const r of reports) {
      expect(r.load!.start).toMatchObject({ registered: 4, expected: 4, startAt });
      const first = Date.parse(r.load!.firstRequestAt!);
      expect(first, `shard ${r.shard!.index}'s first load request (${r.load!.firstRequestAt}) before the barrier opened (${new Date(opened).toISOString()})`).toBeGreaterThanOrEqual(opened);
    }
    const merged = await cliInProcess(['merge-reports', ...[1, 2, 3, 4].map((i) => join(dir, `s${i}`)), '--out', join(dir, 'merged'), '--reporter', 'json']);
    expect([0, 1], merged.stderr).toContain(merged.code);
    expect(merged.stdout).toMatch(/first load requests of the shards within \d+ ms of each other/);
    const whole = JSON.parse(readFileSync(join(dir, 'merged', 'report.json'), 'utf8')) as RunReport;
    expect(whole.load!.shards!.map((s) => s.shard)).toEqual([1, 2, 3, 4]);
    // A shard 4/4 of other load settings (another rate) does not make one run with the three.
    const other = await cli(['run', '--target', gw.url, '--attach', mock.url, '--shard', '4/4', ...load.map((a) => (a === '20' ? '10' : a)), '--out', join(dir, 'other4')], { timeoutMs: LINE_WAIT_MS });
    expect([0, 1], other.stdout + other.stderr).toContain(other.code);
    const mixed = await cliInProcess(['merge-reports', ...[1, 2, 3].map((i) => join(dir, `s${i}`)), join(dir, 'other4'), '--out', join(dir, 'mixed'), '--reporter', 'json']);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/merge-reports: refusing to merge: load shards with different load settings: .* in shard 1 \(.*\), 2 \(.*\), 3 \(.*\); .* in shard 4 \(.*other4.*\)/);
  });
});
