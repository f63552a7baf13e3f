// The frontier's workloads as a run picks them: through the reference gateway translating
// messages into chat completions (the fault translate-clean, launched with --gateway-cmd as a
// user's gateway is), the readiness canaries find the translated route, and load.perf.frontier
// sweeps it beside chat passed through. One step of 5 requests per workload (--load-requests 5): what is asserted
// is which workloads ran and where their requests went, never a figure of time.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/report/shared/types.js';
import { ROOT } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/in-process.js';

describe('frontier workloads in a run', () => {
  it('sweep the translated route where the gateway translates one, the others on a protocol passed through', { timeout: 180_000 }, async () => {
    const out = mkdtempSync(join(tmpdir(), 'gwc-frontier-routes-'));
    const gateway = `exec "${process.execPath}" "${join(ROOT, 'bin', 'gw-conformance.js')}" reference --fault translate-clean --listen 127.0.0.1:{listen_port} --upstream {upstream_url}`;
    const r = await cliInProcess(['run', '--profile', 'load', '--protocols', 'messages,chat', '--gateway-cmd', gateway, '--only', 'load.perf.frontier', '--load-frontier', '--load-requests', '5', '--seed', '3', '--reporter', 'json', '--out', out]);
    expect([0, 1], r.stderr).toContain(r.code);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as RunReport;
    const frontier = report.results.find((x) => x.id === 'load.perf.frontier')!;
    const sweeps = frontier.evidence.sweeps as Array<{ workload: string; steps: Array<{ requests: number }> }>;
    expect(sweeps.map((s) => s.workload)).toEqual(['plain chat', 'streamed chat', 'large body (64 KiB, chat)', 'translated route (messages → chat)']);
    for (const s of sweeps) expect(s.steps.map((x) => x.requests)).toEqual([5]);
    // What picked them: the messages canary reached the upstream as chat completions, the chat canary as chat.
    expect(report.readiness!.protocols.map((p) => [p.protocol, p.upstreamProtocol])).toEqual([['messages', 'chat'], ['chat', 'chat']]);
  });
});
