// The limits a gateway declares decide MSG-SIZE-1 and ERR-RETRY-2: a body limit below the
// provider's (--body-limit-bytes) is met when bodies up to it arrive byte for byte and a body over it
// gets a JSON 413 without reaching the upstream; a retry bound (--retry-bound) caps how often the
// upstream may see a request it answered 429. The same gateway passes or fails by what was declared.
import { describe, expect, it } from 'vitest';
import { demoRun } from '../helpers/demo.js';

const outcome = async (fault: string | undefined, only: string, flags: Record<string, string> = {}) => {
  const r = await demoRun(fault, { only: [only], ...flags });
  const x = r.results.find((c) => c.id === only)!;
  return `${x.outcome}: ${x.message}`;
};

describe('declared limits', () => {
  it('a gateway with a JSON 413 over 16 MiB fails the provider limit, and passes when it declares 16 MB', async () => {
    expect(await outcome('json-413-over-16mib', 'errors.body.size-limit')).toMatch(/^fail: .*JSON 413 request_too_large.*not declared/);
    expect(await outcome('json-413-over-16mib', 'errors.body.size-limit', { bodyLimitBytes: '16000000' })).toMatch(/^pass: a 16 MB body \(the declared limit\) reached the upstream byte for byte.*one over it got a JSON 413/);
  }, 120_000);

  it('over a declared limit, an HTML 413 fails, and so does a gateway that forwards the body anyway', async () => {
    expect(await outcome('html-413-over-1mib', 'errors.body.size-limit', { bodyLimitBytes: '1048576' })).toMatch(/^fail: a 2\.1 MB body, over the declared limit of 1\.05 MB, was answered .*HTML/);
    expect(await outcome(undefined, 'errors.body.size-limit', { bodyLimitBytes: '1048576' })).toMatch(/^fail: a 2\.1 MB body, over the declared limit of 1\.05 MB, reached the upstream/);
  }, 120_000);

  it('a gateway that retries a 429 once after its retry-after passes the default bound (2) and fails a declared bound of 0', async () => {
    expect(await outcome('retry-429-politely', 'errors.retry.client-errors')).toMatch(/^pass/);
    expect(await outcome('retry-429-politely', 'errors.retry.client-errors', { retryBound: '0' })).toMatch(/^fail: 429 was sent 2 times \(at most 1, the declared --retry-bound 0 \+ 1\)/);
  }, 120_000);
});
