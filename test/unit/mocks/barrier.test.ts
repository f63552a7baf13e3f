// The mock's start barrier (--start-together): shards attached to one mock are held until all n
// registered and then given one start moment; a shard of other settings or one registering twice
// is refused at once, and a wait past its bound names the shards that did not come.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteUpstream } from '../../../src/upstream/remote.js';
import { freePort } from '../../helpers/cli.js';
import { startInProcess, type StartedCli } from '../../helpers/in-process.js';

let mock: StartedCli;
let url = '';
const attached: RemoteUpstream[] = [];
const attach = async () => {
  const u = await RemoteUpstream.attach(url);
  attached.push(u);
  return u;
};

beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  mock = startInProcess(['mock', '--listen', `127.0.0.1:${port}`], { timeoutMs: 170_000 });
  await mock.line(/listening/);
});
afterAll(async () => {
  for (const u of attached) await u.detach();
  await mock.stop();
});

describe('start barrier', () => {
  it('holds every shard until all registered, then gives them one start', async () => {
    const ups = await Promise.all([1, 2, 3].map(() => attach()));
    const met = await Promise.all(ups.map((u, i) => u.startTogether({ index: i + 1, count: 3, key: 'build/settings', timeoutMs: 60_000 })));
    expect(met.map((m) => m.registered)).toEqual([3, 3, 3]);
    expect(new Set(met.map((m) => m.startAtWall)).size).toBe(1);
    expect(mock.stdout).toMatch(/start barrier: all 3 shards registered/);
  });

  it('refuses a shard of other settings or another count, and a shard twice, naming them', async () => {
    const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map(() => attach()));
    const first = a.startTogether({ index: 1, count: 2, key: 'k1', timeoutMs: 60_000 });
    await mock.line(/shard 1\/2 from 127\.0\.0\.1 registered/);
    await expect(b.startTogether({ index: 2, count: 2, key: 'k2', timeoutMs: 60_000 })).rejects.toThrow(/--start-together: shard 2\/2 from 127\.0\.0\.1 does not match shard 1\/2 .*another harness build or other load settings \(k2 against k1\)/);
    await expect(c.startTogether({ index: 2, count: 3, key: 'k1', timeoutMs: 60_000 })).rejects.toThrow(/a count of 3, not 2/);
    await expect(d.startTogether({ index: 1, count: 2, key: 'k1', timeoutMs: 60_000 })).rejects.toThrow(/shard 1\/2 registered twice/);
    // The matching shard still opens it.
    const [m1, m2] = await Promise.all([first, c.startTogether({ index: 2, count: 2, key: 'k1', timeoutMs: 60_000 })]);
    expect(m1.startAtWall).toBe(m2.startAtWall);
  });

  it('a wait past its bound is one clear error with the shards that came and those that did not', async () => {
    const a = await attach();
    await expect(a.startTogether({ index: 2, count: 4, key: 'k', timeoutMs: 300 })).rejects.toThrow('--start-together: only 1 of 4 load shards registered within 0.3 s (registered: 2; missing: 1, 3, 4)');
  });
});
