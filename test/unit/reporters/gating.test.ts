// Feature gating and the failure policy: what the gateway does not serve is skipped with the
// reason, never failed; the harness breaking on a check is exit 2, never the gateway's fault.
import { describe, expect, it } from 'vitest';
import { runSuite } from '../../../src/runner/run.js';
import { finishRun } from '../../../src/runner/finish.js';
import { resolveConfig } from '../../../src/config/config.js';
import { defineCheck, type CheckDef } from '../../../src/check/check.js';
import { exitCodeOf, harnessErrorLine, isFailure } from '../../../src/report/shared/policy.js';
import { junitXml } from '../../../src/reporters/junit.js';
import { consoleSummary } from '../../../src/reporters/console.js';
import type { CheckResult, RunReport } from '../../../src/report/shared/types.js';
import { ReferenceGateway } from '../../../reference/gateway.js';
import { RecordingUpstream } from '../../../mocks/upstream/server.js';
import { demoRun } from '../../helpers/demo.js';

describe('feature gating', () => {
  it('checks of an undeclared protocol are skipped with the reason; the declared ones run; the report says what was declared', async () => {
    const r = await demoRun(undefined, { protocols: ['messages'], only: ['native', 'chat', 'messages.path.preserved'] });
    const byId = Object.fromEntries(r.results.map((x) => [x.id, x]));
    expect(byId['messages.path.preserved'].outcome).toBe('pass');
    const others = r.results.filter((x) => x.id !== 'messages.path.preserved');
    expect(others.length).toBeGreaterThan(10);
    for (const x of others) {
      expect(x.outcome, x.id).toBe('skip');
      expect(x.message, x.id).toMatch(new RegExp(`^not declared: ${x.area} \\(declare it with --protocols`));
    }
    expect(r.declared).toEqual({ protocols: ['messages'], websockets: [] });
    expect(consoleSummary(r, [])).toContain('declared: messages (checks that need anything else are skipped as not declared)');
    expect(r.exitCode).toBe(0);
  });
});

const result = (outcome: CheckResult['outcome'], level: CheckResult['level'] = 'MUST'): CheckResult => ({ id: `x.${outcome}`, title: 't', area: 'x', requirements: ['MSG-PATH-1'], level, outcome, message: `m ${outcome}`, expected: null, actual: null, evidence: {}, durationMs: 1 });

describe('the failure policy', () => {
  it('decides the exit code and the JUnit failures alike', () => {
    const cases: Array<[CheckResult, boolean, boolean]> = [
      [result('fail'), false, true],
      [result('timeout'), false, true],
      [result('timeout', 'INFO'), false, false],
      [result('warn', 'SHOULD'), false, false],
      [result('warn', 'SHOULD'), true, true],
      [result('info', 'INFO'), true, false],
      [result('skip'), true, false],
      [result('pass'), true, false],
    ];
    for (const [r, strict, failing] of cases) {
      expect(isFailure(r, strict), `${r.outcome} ${r.level} strict=${strict}`).toBe(failing);
      expect(exitCodeOf([r], strict)).toBe(failing ? 1 : 0);
      const xml = junitXml({ strict, results: [r], target: 't', startedAt: new Date().toISOString(), seed: 1, profile: 'default', durationMs: 1, harness: { name: 'gw-conformance', version: '0' } } as RunReport);
      expect(/<failure/.test(xml), `junit ${r.outcome} ${r.level} strict=${strict}`).toBe(failing);
    }
  });

  it('an error outcome (the harness broke) is exit 2 with one line naming the check', async () => {
    const broken: CheckDef = defineCheck({
      id: 'messages.harness-bug',
      title: 'a check whose code throws',
      requirements: ['MSG-PATH-1'],
      level: 'MUST',
      area: 'messages',
      profile: 'default',
      requirement: 'none',
      fix: 'none',
      async run() {
        throw new TypeError('cannot read properties of undefined');
      },
    });
    const upstream = new RecordingUpstream();
    await upstream.start('127.0.0.1', 0);
    const gw = new ReferenceGateway({ upstream: upstream.url });
    try {
      const target = await gw.start('127.0.0.1', 0);
      const cfg = resolveConfig({ seed: '1', reporter: ['json'], out: `${process.env.TMPDIR ?? '/tmp'}/gwc-policy-${process.pid}` }, {}, {});
      const report = await runSuite([broken], cfg, target, upstream, () => {});
      expect(report.results[0].outcome).toBe('error');
      expect(report.exitCode).toBe(2);
      const err: string[] = [];
      expect(finishRun(report, cfg, { out: () => {}, err: (s) => err.push(s) }, [])).toBe(2);
      // Without the console reporter the result comes first, in one line; then the check that broke.
      expect(err).toEqual([expect.stringMatching(/^gw-conformance: 1 error in \d+\.\d s: the harness broke on a check/), 'gw-conformance: the harness broke on messages.harness-bug: TypeError: cannot read properties of undefined, not the gateway']);
      expect(harnessErrorLine([result('pass')])).toBeNull();
    } finally {
      await gw.stop();
      await upstream.stop();
    }
  });
});
