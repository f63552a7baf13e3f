// MCP through the three real proxies, each from its example configuration (examples/nginx,
// examples/haproxy, examples/caddy; test/helpers/mcp/proxies.ts): our own mcp checks (`run
// --protocols mcp`, the recording upstream behind the proxy), the official conformance suite's
// server scenarios and Claude Code's MCP session (through the proxy to the tests' own MCP
// server), all inside one loopback-only namespace per run. Each verdict that differs from the
// straight run (test/real/mcp/conformance.test.ts) is held here with what the wire shows caused
// it (EXPECTED), and docs/mcp.md carries the same table.
//
// Skipped per proxy when its program is absent and its GWC_REQUIRE_* is not 1; the suite's and
// Claude Code's parts when they are absent and not required.
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE_BIN, findConformance, headerOf, methodsOf, runMcpInNamespace, STRAIGHT_WARNINGS, withStatus, type NsResult } from '../../helpers/mcp/run.js';
import { CHECKS } from '../../../suites/index.js';
import { installed, PROXIES, requiredProgram, SERVER_LISTEN, type Proxy } from '../../helpers/mcp/proxies.js';

const conformance = { available: !!findConformance(), required: process.env.GWC_REQUIRE_MCP_CONFORMANCE === '1' };
const claude = { available: existsSync(CLAUDE_BIN), required: process.env.GWC_REQUIRE_CLAUDE === '1' };
/** The suite's limit per run and the client's; each namespace gets 30 s more. */
const SUITE_TIMEOUT_MS = 240_000;
const CLAUDE_TIMEOUT_MS = 60_000;
/** Our run of the 14 mcp checks (about 3 s quiet). */
const OURS_TIMEOUT_MS = 120_000;
const MCP_CHECKS = CHECKS.filter((c) => c.protocol === 'mcp').length;
const API_KEY = `gwc-mcp-proxy-key-${process.pid}`;
const MODEL_TEXT = 'The MCP tool answered.';
const NO_TOOL_TEXT = 'No MCP tool was offered.';
/** What hardened.conf sends as Host: nginx's default, $proxy_host, the name of its upstream block. */
const HARDENED_HOST = 'llm_api';

interface Expected {
  /** Our mcp checks that do not pass through the proxy (id: outcome). */
  ours: Record<string, string>;
  /** The conformance checks that fail through the proxy (`scenario/check`); `all` = every check but the rebinding refusal. */
  failures: string[] | 'all';
  /** Whether Claude Code's MCP session reaches the tool. */
  claudeCalls: boolean;
  /** What the wire shows (asserted below, and written in docs/mcp.md). */
  why: string;
}

const EXPECTED: Record<string, Expected> = {
  'nginx plain.conf': {
    ours: {},
    failures: [],
    claudeCalls: true,
    why: 'every MCP header and status passes, and the streams are not buffered although plain.conf buffers: the SDK answers each event stream with X-Accel-Buffering: no; Host is $host (127.0.0.1), the rebinding probe reaches the server, which refuses it',
  },
  'nginx streaming.conf': { ours: {}, failures: [], claudeCalls: true, why: 'as plain.conf, with proxy_buffering off of its own' },
  'nginx hardened.conf': {
    ours: {},
    failures: 'all',
    claudeCalls: false,
    why: `Host becomes ${HARDENED_HOST} ($proxy_host): the recording upstream takes any Host (ours pass), the tests' MCP server's DNS-rebinding guard refuses it (403) on every request, so every check of theirs fails and Claude Code goes on without the server`,
  },
  'haproxy haproxy.cfg': { ours: {}, failures: [], claudeCalls: true, why: 'every MCP header and status passes, Host and Origin as the client sent them, streams unbuffered' },
  'caddy plain.Caddyfile': {
    ours: {},
    failures: ['dns-rebinding-protection/localhost-host-rebinding-rejected'],
    claudeCalls: true,
    why: 'Caddy answers a request for a Host it has no site for itself (200, empty): the rebinding probe never reaches the server, which their check reads as the server accepting it',
  },
};

const rebindingRefusal = 'dns-rebinding-protection/localhost-host-rebinding-rejected';

function proxyRuns(p: Proxy): void {
  const skip = !installed(p.program) && !requiredProgram(p.program);
  describe.skipIf(skip)(p.name, () => {
    const expected = EXPECTED[p.name];
    let own: NsResult;
    let suite: NsResult | undefined;
    let session: NsResult | undefined;

    beforeAll(async () => {
      if (!installed(p.program)) throw new Error(`${p.program} is required here (its GWC_REQUIRE_* is 1): apt-get install ${p.program}`);
      own = await runMcpInNamespace(`ours-${p.program}`, { job: 'ours', gateway: p.gateway, serverListen: SERVER_LISTEN, timeoutMs: OURS_TIMEOUT_MS });
      if (conformance.available || conformance.required) suite = await runMcpInNamespace(`conformance-${p.program}`, { job: 'conformance', suite: 'all', gateway: p.gateway, serverListen: SERVER_LISTEN, timeoutMs: SUITE_TIMEOUT_MS });
      if (claude.available || claude.required) session = await runMcpInNamespace(`claude-${p.program}`, { job: 'claude', apiKey: API_KEY, gateway: p.gateway, serverListen: SERVER_LISTEN, timeoutMs: CLAUDE_TIMEOUT_MS });
    }, OURS_TIMEOUT_MS + SUITE_TIMEOUT_MS + CLAUDE_TIMEOUT_MS + 120_000);

    it(`our mcp checks: ${Object.keys(expected.ours).length ? Object.keys(expected.ours).join(', ') : 'all 14 pass'}`, () => {
      expect(own.end.timedOut, own.end.tail).toBe(false);
      expect(own.ours?.length, own.end.tail).toBe(MCP_CHECKS);
      const notPassed = Object.fromEntries((own.ours ?? []).filter((c) => c.outcome !== 'pass').map((c) => [c.id, c.outcome]));
      expect(notPassed, own.end.tail).toEqual(expected.ours);
    });

    it.skipIf(!conformance.available && !conformance.required)(`the conformance suite: ${expected.failures === 'all' ? 'every check fails' : `${expected.failures.length} check(s) fail`} (${expected.why})`, () => {
      if (!suite) throw new Error('the conformance suite is required (GWC_REQUIRE_MCP_CONFORMANCE=1) but absent');
      expect(suite.end.timedOut, suite.end.tail).toBe(false);
      expect(Object.keys(suite.scenarios ?? {}).length, suite.end.tail).toBeGreaterThanOrEqual(30);
      const failed = withStatus(suite, 'FAILURE');
      if (expected.failures === 'all') {
        const every = [...withStatus(suite, 'SUCCESS'), ...failed, ...withStatus(suite, 'WARNING')].filter((c) => c !== rebindingRefusal);
        expect(failed.filter((c) => c !== rebindingRefusal)).toEqual(every);
        // The wire: every request reached the server with Host rewritten, and was refused.
        expect(suite.server.length).toBeGreaterThan(30);
        for (const e of suite.server) expect([headerOf(e, 'host'), e.status]).toEqual([[HARDENED_HOST], 403]);
        return;
      }
      expect(failed).toEqual(expected.failures);
      expect(suite.end.code).toBe(failed.length ? 1 : 0);
      expect(withStatus(suite, 'WARNING')).toEqual(STRAIGHT_WARNINGS);
      // The wire: every event stream the server answered told nginx not to buffer it.
      const streams = suite.server.filter((e) => e.answer?.['content-type'] === 'text/event-stream');
      expect(streams.length).toBeGreaterThan(30);
      for (const e of streams) expect(e.answer?.['x-accel-buffering']).toBe('no');
      const probes = suite.server.filter((e) => headerOf(e, 'origin')[0] === 'http://evil.example.com');
      // The wire: the rebinding probe reached the server (refused there) or, through Caddy, never did.
      expect(probes.map((e) => e.status)).toEqual(failed.includes(rebindingRefusal) ? [] : [403]);
    });

    it.skipIf(!claude.available && !claude.required)(`Claude Code's MCP session ${expected.claudeCalls ? 'reaches the tool as straight' : 'never starts'}`, () => {
      if (!session) throw new Error('Claude Code is required (GWC_REQUIRE_CLAUDE=1) but absent');
      expect(session.end.timedOut, session.end.stderr).toBe(false);
      expect(session.end.code, session.end.stderr).toBe(0);
      expect(session.end.stdout?.trim()).toBe(expected.claudeCalls ? MODEL_TEXT : NO_TOOL_TEXT);
      const posts = session.server.filter((e) => e.method === 'POST').sort((a, b) => a.seq - b.seq).flatMap(methodsOf);
      if (!expected.claudeCalls) {
        expect(posts).toEqual(['server/discover', 'initialize']);
        for (const e of session.server) expect([headerOf(e, 'host'), e.status]).toEqual([[HARDENED_HOST], 403]);
        return;
      }
      expect(posts.slice(0, 3)).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
      expect(posts.slice(-1)).toEqual(['tools/call']);
      const [init] = session.server.filter((e) => methodsOf(e).includes('initialize'));
      const sid = init.answer?.['mcp-session-id'];
      expect(sid).toMatch(/^[0-9a-f-]{36}$/);
      for (const e of session.server.filter((x) => x.seq > init.seq || x.method === 'GET')) expect(headerOf(e, 'mcp-session-id'), `${e.method} ${methodsOf(e)}`).toEqual([sid]);
      expect(session.server.filter((e) => e.method === 'GET').map((e) => e.status)).toEqual([200]);
      expect(JSON.stringify(session.server)).not.toContain(API_KEY);
    });
  });
}

describe('MCP through the real proxies\' example configurations', () => {
  for (const p of PROXIES) proxyRuns(p);
});
