// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json
// config.mcpConformanceVersion, installed under ${GWC_MCP_CONFORMANCE_DIR:-/opt/mcp-conformance}
// by .ci/run, run on the Node 22 line it needs) as an outside oracle: its server scenarios
// (`conformance server --url URL --suite all`) against the tests' own MCP server
// (test/helpers/mcp/server.mjs, on the official SDK), straight, all inside one loopback-only
// network namespace. Straight, every scenario must pass: that makes the server a fit reference
// for the runs through gateways, where a verdict that changes is the gateway's doing.
//
// Skipped only when the suite or Node 22 is absent and GWC_REQUIRE_MCP_CONFORMANCE is not 1;
// in CI (.ci/run sets it) it always runs.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.js';
import { findConformance, headerOf, methodsOf, runMcpInNamespace, STRAIGHT_WARNINGS, withStatus, type NsResult } from '../../helpers/mcp/run.js';

const conformance = findConformance();
const required = process.env.GWC_REQUIRE_MCP_CONFORMANCE === '1';
const PINNED = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { config: { mcpConformanceVersion: string } }).config.mcpConformanceVersion;
/** The suite's own limit for a whole run (32 scenarios, about 3 s quiet); the namespace gets 30 s more. */
const SUITE_TIMEOUT_MS = 240_000;

describe.skipIf(!conformance && !required)('the official MCP conformance suite against the tests\' own MCP server', () => {
  let straight: NsResult;

  beforeAll(async () => {
    if (!conformance) throw new Error('GWC_REQUIRE_MCP_CONFORMANCE=1 but the conformance suite or Node 22 is absent: .ci/run installs them (npm install --prefix /opt/mcp-conformance @modelcontextprotocol/conformance@<config.mcpConformanceVersion>; scripts/node-lines.sh)');
    straight = await runMcpInNamespace('conformance-straight', { job: 'conformance', suite: 'all', timeoutMs: SUITE_TIMEOUT_MS });
  }, SUITE_TIMEOUT_MS + 60_000);

  it('the installed suite is the pinned version (package.json config.mcpConformanceVersion)', () => {
    expect(conformance?.version).toBe(PINNED);
  });

  it('straight, the run ends by itself and every scenario of the suite reports checks', () => {
    expect(straight.end.timedOut, straight.end.tail).toBe(false);
    const names = Object.keys(straight.scenarios ?? {});
    // The suite's server scenarios, as its own summary names them.
    const summary = [...(straight.end.tail ?? '').matchAll(/^[✓✗] (\S+):/gm)].map((m) => m[1]);
    expect(summary.length, straight.end.tail).toBeGreaterThanOrEqual(30);
    expect(names.sort()).toEqual([...summary].sort());
    for (const n of names) expect(straight.scenarios?.[n].length, n).toBeGreaterThan(0);
  });

  it('straight, no check fails, the suite exits 0, and the only warnings are the two explained ones', () => {
    expect(withStatus(straight, 'FAILURE'), straight.end.tail).toEqual([]);
    expect(straight.end.code).toBe(0);
    expect(withStatus(straight, 'WARNING')).toEqual(STRAIGHT_WARNINGS);
  });

  it('the server saw the suite\'s sessions as the transport has them: a session id from initialize on every later request of it', () => {
    const issued = new Set(straight.server.filter((e) => methodsOf(e).includes('initialize')).map((e) => e.answer?.['mcp-session-id']).filter(Boolean));
    expect(issued.size).toBeGreaterThanOrEqual(30);
    // Every request that is not an initialize and not the DNS-rebinding probes (refused before any session) names an issued session.
    const later = straight.server.filter((e) => !methodsOf(e).includes('initialize') && e.status !== 403);
    expect(later.length).toBeGreaterThan(50);
    for (const e of later) expect(issued.has(headerOf(e, 'mcp-session-id')[0]), `${e.method} ${JSON.stringify(e.body)?.slice(0, 80)}`).toBe(true);
    // The refused probes: the rebinding scenario's Host and Origin of another site, answered 403.
    expect(straight.server.filter((e) => e.status === 403).map((e) => headerOf(e, 'origin')[0])).toEqual(['http://evil.example.com']);
  });
});
