// The recording upstream's barrier (a reply's `hold`, mocks/upstream/hold.ts): answers of a
// group are held until a batch is waiting, so requests overlap whatever the rate; a gateway that
// forwards fewer at once is answered when the bounded wait runs out, then without waiting again.
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { Holds } from '../../../mocks/upstream/hold.js';
import type { RecordingUpstream } from '../../../mocks/upstream/server.js';
import { eachUpstream } from '../../helpers/each-upstream.js';
import { JSON_HEADERS, type Hold } from '../../../src/upstream/scenario.js';

const hold = (o: Partial<Hold> = {}): Hold => ({ group: `g-${Math.random()}`, size: 3, waitMs: 60_000, total: 100, ...o });

describe('the hold of a group', () => {
  it('answers nothing until the batch is complete, then the whole batch at once', () => {
    const h = new Holds();
    const g = hold();
    const done: string[] = [];
    h.arrive(g, () => done.push('a'));
    h.arrive(g, () => done.push('b'));
    expect(done).toEqual([]);
    h.arrive(g, () => done.push('c'));
    expect(done).toEqual(['a', 'b', 'c']);
    // The next batch is held again.
    h.arrive(g, () => done.push('d'));
    expect(done).toEqual(['a', 'b', 'c']);
  });

  it('answers the last, smaller batch once the group\'s every request arrived, and later ones (retries) at once', () => {
    const h = new Holds();
    const g = hold({ total: 4 });
    const done: string[] = [];
    for (const x of ['a', 'b', 'c']) h.arrive(g, () => done.push(x));
    h.arrive(g, () => done.push('d'));
    expect(done).toEqual(['a', 'b', 'c', 'd']);
    h.arrive(g, () => done.push('retry'));
    expect(done).toEqual(['a', 'b', 'c', 'd', 'retry']);
  });

  it('a gateway that forwards one request at a time: the first waits the bound, the rest of the group is not held again', async () => {
    const h = new Holds();
    const g = hold({ size: 8, waitMs: 50 });
    let first = false;
    const answered = new Promise<void>((resolve) => h.arrive(g, () => resolve(void (first = true))));
    expect(first).toBe(false);
    await answered;
    const done: string[] = [];
    h.arrive(g, () => done.push('second'));
    expect(done).toEqual(['second']);
  });

  it('no hold, or a batch of one: answered at once', () => {
    const h = new Holds();
    const done: number[] = [];
    h.arrive(undefined, () => done.push(1));
    h.arrive(hold({ size: 1 }), () => done.push(2));
    expect(done).toEqual([1, 2]);
  });
});

describe('the recording upstream holds answers', () => {
  let up: RecordingUpstream;
  eachUpstream((u) => (up = u));

  it('writes no answer of a batch before its last request arrived', async () => {
    const g = hold({ size: 3 });
    const cases = [0, 1, 2].map(() => up.expect((t) => ({ kind: 'json', status: 200, headers: JSON_HEADERS, body: `{"t":"${t}"}`, hold: g })));
    const send = (i: number) => request(`${up.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: cases[i].token }) }).then((r) => r.body.text());
    const first = [send(0), send(1)];
    for (const c of cases.slice(0, 2)) expect(await c.received(10_000)).not.toBeNull();
    // Both arrived and are recorded; an answer played at once would have been written in the same turn.
    expect(cases.slice(0, 2).map((c) => c.hits[0].sentAt.length)).toEqual([0, 0]);
    const all = await Promise.all([...first, send(2)]);
    expect(all).toEqual(cases.map((c) => `{"t":"${c.token}"}`));
    expect(cases.map((c) => c.hits[0].sentAt.length)).toEqual([1, 1, 1]);
  });
});
