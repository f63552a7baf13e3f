// A gateway that forwards every request but answers each (the start-up HEAD / too) with headers
// past every limit, a 100 MiB header value or 10,000 header lines: the recording upstream sees the
// requests, so the run is the gateway's failure, exit 1 with the parse error as the evidence,
// never exit 2 ("could not run") at the preflight or the readiness gate.
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/report/shared/types.js';
import { hostileRun } from '../helpers/hostile-run.js';

const TOKEN = 'sk-header-flood-0123456789abcdef';

describe('header floods on a gateway that forwards', () => {
  for (const name of ['header-100mib-value', 'ten-thousand-lines']) {
    it(`${name}: exit 1, the check fails with the parse error`, { timeout: 90_000 }, async () => {
      const r = await hostileRun(name, { token: TOKEN, args: ['--only', 'messages.response.unchanged', '--timeout-ms', '4000', '--ready-timeout-s', '8'], killAfterMs: 60_000 });
      expect(r.code, r.stderr).toBe(1);
      // The preflight's HEAD / got the flood too: a warning, not the end of the run.
      expect(r.stdout + r.stderr).toMatch(/answered HEAD \/ with broken HTTP \(UND_ERR_HEADERS_OVERFLOW\); running the checks/);
      const report = JSON.parse(r.files.json!) as RunReport;
      // The readiness gate saw the canaries reach the recording upstream.
      expect(report.readiness?.ready).toBe(true);
      const x = report.results.find((y) => y.id === 'messages.response.unchanged')!;
      expect(x.outcome).toBe('fail');
      expect(x.message).toMatch(/the gateway's connection failed: .*the answer is not valid HTTP: UND_ERR_HEADERS_OVERFLOW/);
      expect(x.actual).toBe('UND_ERR_HEADERS_OVERFLOW');
      expect(r.stdout + r.stderr + r.files.json).not.toContain(TOKEN);
    });
  }
});
