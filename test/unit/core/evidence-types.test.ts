// The writer's side of the evidence vocabulary (src/core/evidence.ts) is typed: a check's evidence
// with a known key in another shape does not compile, at the top level for every key (Evidence)
// and at any depth for the keys the reporters parse wherever they sit (pass() and fail(),
// DeepParts). Each `@ts-expect-error` below is held by the type-check of the tests
// (test/project/typecheck.test.ts): were the line to compile, the directive itself would be an
// error. At run time pass() and fail() carry the evidence as it was given.
import { describe, expect, it } from 'vitest';
import { fail, pass, type Evidence, type Verdict } from '../../../src/check/check.js';
import type { JsonDiff } from '../../../src/core/json-diff.js';

const diff: JsonDiff = { path: '/model', kind: 'changed', expected: 'a', actual: 'b' };

describe('evidence typed on the writer side', () => {
  it('the known keys in their shapes compile, at the top and deep, beside free-form keys; pass and fail keep them as given', () => {
    const evidence = { diffs: [diff, 'a sentence'], fixture: 'f', cases: [{ fixture: 'g', diffs: [diff], bounds: { maxLagMs: 50 } }], free: { anything: [1, 'x'] } };
    expect(pass('held', evidence).evidence).toBe(evidence);
    expect(fail('broke', { expected: 'e', actual: 'a', evidence }).evidence).toBe(evidence);
    // A number under a side key deep in a check's own figures is not a side: it compiles.
    expect(pass('held', { concurrency: { client: 2, upstream: 1 } }).ok).toBe(true);
  });

  it('a known key in another shape does not compile', () => {
    // @ts-expect-error diffs are JSON differences or sentences
    const topLevel: Evidence = { diffs: 3 };
    // @ts-expect-error the runner's attempts are Attempt records, not a check's own lines
    const attempts: Verdict = { ok: true, message: 'm', evidence: { attempts: ['first try'] } };
    // @ts-expect-error deep too: a fixture's name is a string
    const deepFixture = pass('m', { cases: [{ fixture: 3 }] });
    // @ts-expect-error deep too: bounds hold a number of milliseconds
    const deepBounds = fail('m', { evidence: { stream: { timeline: 'rows', bounds: { maxLagMs: 'slow' } } } });
    // @ts-expect-error deep too: the load charts' per-second series are lists of numbers
    const deepSeries = pass('m', { phases: { throughput: { direct: 'many', through: [] } } });
    expect([topLevel, attempts, deepFixture, deepBounds, deepSeries].length).toBe(5);
  });
});
