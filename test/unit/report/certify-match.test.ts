// verify checks conformance-report.yaml against the run it reports before it runs anything: an
// edited verdict or count (or seed, exit code, number of exchanges) is refused in one line that
// names the file, what it says and what report.json (or transcript.jsonl) gives.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { verify } from '../../../cli/verify/verify.js';
import { HarnessError } from '../../../src/core/errors.js';
import { conformanceReport, writeCertifyFiles, type TranscriptLine } from '../../../src/report/certify/certify.js';
import { conformanceMismatch } from '../../../src/report/certify/certify-match.js';
import { type CheckResult, type RunReport } from '../../../src/report/shared/types.js';
import { madeUpReport } from '../../helpers/made-up-report.js';

const result = (id: string, outcome: CheckResult['outcome']): CheckResult => ({ id, title: id, area: 'messages', requirements: ['MSG-BODY-1'], level: 'MUST', outcome, message: outcome, expected: null, actual: null, evidence: {}, durationMs: 1 });

function report(): RunReport {
  const results = [result('messages.body.bytes', 'pass'), result('messages.path.exact', 'fail'), result('messages.stream.flag', 'skip')];
  return madeUpReport(results, { harness: { name: 'gw-conformance', version: '0' }, target: 'http://127.0.0.1:1', seed: 9, startedAt: '2026-11-27T00:00:00.000Z', finishedAt: '2026-11-27T00:00:01.000Z' });
}

const lines: TranscriptLine[] = [{ check: 'messages.body.bytes', n: 1, kind: 'client', summary: 'POST /v1/messages -> 200', parts: { request: 'a', response: 'b' } }];

/** A certify folder of the report above; returns its path. */
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gwc-match-'));
  const r = report();
  writeFileSync(join(dir, 'report.json'), JSON.stringify(r));
  writeCertifyFiles(dir, conformanceReport({ report: r, transcript: lines, digest: 'd'.repeat(64), implementation: { name: 'X', version: '1' }, settings: { seed: 9 }, argv: [] }), lines);
  return dir;
}

/** verify of the folder, which must refuse before running anything. */
async function refusal(dir: string): Promise<string> {
  const io = { out: () => undefined, err: () => undefined, env: {} };
  const e = await verify(dir, { target: 'http://127.0.0.1:1' }, io, () => Promise.reject(new Error('verify ran the checks of a folder that contradicts itself'))).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(HarnessError);
  expect((e as HarnessError).code).toBe('BAD_REPORT');
  return (e as Error).message;
}

const edit = (dir: string, change: (doc: Record<string, any>) => void) => { // eslint-disable-line @typescript-eslint/no-explicit-any
  const f = join(dir, 'conformance-report.yaml');
  const doc = YAML.parse(readFileSync(f, 'utf8'));
  change(doc);
  writeFileSync(f, YAML.stringify(doc));
};

describe('verify checks conformance-report.yaml', () => {
  it('a folder as certify wrote it agrees with itself', () => {
    const dir = folder();
    const doc = YAML.parse(readFileSync(join(dir, 'conformance-report.yaml'), 'utf8'));
    expect(conformanceMismatch(doc, report(), lines)).toBeNull();
  });

  it('an edited verdict: a failed check listed as passed', async () => {
    const dir = folder();
    edit(dir, (d) => {
      d.profiles[0].checks.failed = [];
      d.profiles[0].checks.passed.push('messages.path.exact');
    });
    const m = await refusal(dir);
    expect(m).toBe(`verify: ${join(dir, 'conformance-report.yaml')} does not match the run it reports: profiles[0].checks.passed[1] is "messages.path.exact", but report.json gives (absent)`);
    expect(m.split('\n')).toHaveLength(1);
  });

  it('an edited result, count, seed, exit code or number of exchanges', async () => {
    const cases: Array<[(d: Record<string, any>) => void, RegExp]> = [ // eslint-disable-line @typescript-eslint/no-explicit-any
      [(d) => (d.profiles[0].result = 'success'), /profiles\[0\]\.result is "success", but report\.json gives "failure"$/],
      [(d) => (d.profiles[0].statistics.failed = 0), /profiles\[0\]\.statistics\.failed is 0, but report\.json gives 1$/],
      [(d) => (d.profiles[0].summary = 'all 3 checks held'), /profiles\[0\]\.summary is "all 3 checks held", but report\.json gives "1 failed, /],
      [(d) => (d.seed = 10), /seed is 10, but report\.json gives 9$/],
      [(d) => (d.runReport.exitCode = 0), /runReport\.exitCode is 0, but report\.json gives 1$/],
      [(d) => (d.transcript.exchanges = 2), /transcript\.exchanges is 2, but transcript\.jsonl gives 1$/],
    ];
    for (const [change, want] of cases) {
      const dir = folder();
      edit(dir, change);
      expect(await refusal(dir)).toMatch(new RegExp(`^verify: .*conformance-report\\.yaml does not match the run it reports: ${want.source}`));
    }
  });
});
