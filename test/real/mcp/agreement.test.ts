// The official MCP conformance suite beside our mcp checks, on the same gateway: the reference
// gateway, clean and with each mcp fault (reference/faults/mcp.ts), between the suite and the
// tests' own MCP server (the suite needs a server scripted with its scenarios' tools; the
// recording upstream opens MCP sessions only for a case of ours). Their verdict is the suite's
// failed checks through the gateway, measured here; ours is the fault's detection row
// (test/detection/*.json, held by the detection matrix). Where both cover the fault's
// requirement they must agree (both catch it); where only ours does, AGREEMENT says why their
// server scenarios cannot see it. docs/mcp.md carries the table.
//
// Skipped only when the suite or Node 22 is absent and GWC_REQUIRE_MCP_CONFORMANCE is not 1.
import { beforeAll, describe, expect, it } from 'vitest';
import { readMatrix } from '../../../scripts/detection-rows.mjs';
import { MCP_FAULTS } from '../../../reference/faults/mcp.js';
import { PROTOCOLS } from '../../../src/core/protocols.js';
import { findConformance, runMcpInNamespace, STRAIGHT_WARNINGS, withStatus, type NsResult } from '../../helpers/mcp/run.js';

const conformance = findConformance();
const required = process.env.GWC_REQUIRE_MCP_CONFORMANCE === '1';
/** The suite's limit per run (the whole suite, about 5 s quiet), or per scenario when named; the namespace gets 30 s more. */
const SUITE_TIMEOUT_MS = 240_000;
/**
 * The rebinding scenario's two checks: each is one lone initialize (no session needed), and the
 * refusal passes on any 4xx, the server's 404 for a path it does not serve too.
 */
const REFUSAL = 'dns-rebinding-protection/localhost-host-rebinding-rejected';
const ACCEPTED = 'dns-rebinding-protection/localhost-host-valid-accepted';

interface Agreement {
  /** The suite's failed checks through the faulty gateway: a list, or every check the run reported but those named. */
  theirs: string[] | { everyBut: string[] };
  /** The scenarios run (default: the whole suite). */
  scenarios?: string[];
  /** Why they agree, or why their server scenarios cannot see the fault. */
  why: string;
}

const NOT_COVERED = 'not covered by their server scenarios';
const AGREEMENT: Record<string, Agreement> = {
  'mcp-path-slash': { theirs: { everyBut: [REFUSAL] }, why: 'both: every request goes to /mcp/, which the server does not serve (404; the rebinding refusal passes on it)' },
  'mcp-drop-session': { theirs: { everyBut: [REFUSAL, ACCEPTED] }, why: 'both: initialize works, every later request arrives without its session id (400); the rebinding checks need no session' },
  'mcp-swap-sessions': { theirs: [], why: `${NOT_COVERED}: the suite runs one client at a time; the id it is handed is the previous client's, still open at the server, so every call works there` },
  'mcp-strip-version': { theirs: [], why: `${NOT_COVERED}: the SDK server takes a request without MCP-Protocol-Version as 2025-03-26 (the transport's fallback), and no scenario asks which version arrived` },
  'mcp-drop-event-ids': { theirs: [], why: `${NOT_COVERED}: event ids matter in server-sse-polling only, and at the version it asks (2025-03-26) the SDK neither primes nor closes the stream, so no id is used` },
  'mcp-buffer-stream': {
    theirs: ['tools-call-sampling/tools-call-sampling'],
    scenarios: ['tools-call-sampling', 'tools-call-with-progress'],
    why: "both: the server's sampling/createMessage request waits in the held stream, the client never answers it, and the call times out (the SDK client's 60 s); the progress notifications arrive all at once at the end, which their scenario accepts (it counts them, ours times them)",
  },
  'mcp-202-as-200': { theirs: [], why: `${NOT_COVERED}: the SDK client takes a notification's 200 with a JSON body without complaint, and no scenario looks at that status` },
  'mcp-refuse-get': { theirs: [], why: `${NOT_COVERED}: the SDK client takes a 405 to GET as a server that offers no stream (allowed to a server), and no scenario needs the GET stream` },
  'mcp-refuse-delete': { theirs: [], why: `${NOT_COVERED}: the suite never sends DELETE` },
  'mcp-404-as-502': { theirs: [], why: `${NOT_COVERED}: no scenario lets a session expire` },
  'mcp-clamp-ids': { theirs: [], why: `${NOT_COVERED}: the suite's JSON-RPC ids are small integers` },
  'mcp-cut-large': { theirs: [], why: `${NOT_COVERED}: every answer of the scenarios is far below 1 MiB` },
  'mcp-rewrite-challenge': { theirs: [], why: `${NOT_COVERED}: the server scenarios run without authorization (the suite's OAuth scenarios test clients)` },
  'mcp-no-discovery': { theirs: [], why: `${NOT_COVERED}: the server scenarios never fetch the OAuth discovery documents` },
};

const gateway = (fault?: string) => ({ args: ['reference', '--listen', '127.0.0.1:0', '--upstream', '{UPSTREAM}', ...(fault ? ['--fault', fault] : [])] });
const ours = readMatrix(new URL('../../detection/', import.meta.url), PROTOCOLS) as { faults: Record<string, Record<string, string>> };
const failedChecks = (r: NsResult) => withStatus(r, 'FAILURE');
const everyCheck = (r: NsResult) => ['SUCCESS', 'FAILURE', 'WARNING', 'INFO'].flatMap((s) => withStatus(r, s)).sort();

describe.skipIf(!conformance && !required)('the conformance suite and our mcp checks on the same gateways (the agreement table)', () => {
  const runs: Record<string, NsResult> = {};

  beforeAll(async () => {
    if (!conformance) throw new Error('GWC_REQUIRE_MCP_CONFORMANCE=1 but the conformance suite or Node 22 is absent (.ci/run installs them)');
    runs.clean = await runMcpInNamespace('agree-clean', { job: 'conformance', suite: 'all', gateway: gateway(), timeoutMs: SUITE_TIMEOUT_MS });
    // One after another: two cores, and each run is a few seconds (mcp-buffer-stream's sampling call waits the SDK's 60 s).
    for (const [fault, a] of Object.entries(AGREEMENT)) runs[fault] = await runMcpInNamespace(`agree-${fault}`, { job: 'conformance', suite: 'all', scenarios: a.scenarios, gateway: gateway(fault), timeoutMs: SUITE_TIMEOUT_MS });
  }, 20 * SUITE_TIMEOUT_MS);

  it('the table names every mcp fault of the reference gateway, once', () => {
    expect(Object.keys(AGREEMENT).sort()).toEqual(MCP_FAULTS.map((f) => f.name).sort());
  });

  it("through the clean reference gateway their suite passes as straight (no failure, the two explained warnings); ours passes too (the detection matrix's clean run)", () => {
    expect(failedChecks(runs.clean), runs.clean.end.tail).toEqual([]);
    expect(withStatus(runs.clean, 'WARNING')).toEqual(STRAIGHT_WARNINGS);
    expect(runs.clean.end.code).toBe(0);
  });

  for (const [fault, a] of Object.entries(AGREEMENT)) {
    it(`${fault}: ${a.why}`, () => {
      const r = runs[fault];
      expect(r.end.timedOut, r.end.tail).toBe(false);
      const but = Array.isArray(a.theirs) ? null : a.theirs.everyBut;
      const theirs = but ? everyCheck(r).filter((c) => !but.includes(c)) : (a.theirs as string[]);
      expect(failedChecks(r), r.end.tail).toEqual(theirs);
      if (!a.scenarios) expect(Object.keys(r.scenarios ?? {}).length).toBe(Object.keys(runs.clean.scenarios ?? {}).length);
      // Ours: the fault's row fails the mcp check of the requirement it breaks (the matrix holds the row).
      const row = ours.faults[fault] ?? {};
      const mcpFails = Object.entries(row).filter(([id, o]) => id.startsWith('mcp.') && o === 'fail');
      expect(mcpFails.length, `${fault}: its detection row`).toBeGreaterThan(0);
      // Both catch it where the table says both cover it; only ours where it says theirs cannot.
      expect(theirs.length > 0, fault).toBe(a.why.startsWith('both'));
    });
  }
});
