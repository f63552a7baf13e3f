// Claude Code as an MCP client over Streamable HTTP (`claude -p --mcp-config`, a remote server of
// type http): the tests' own MCP server (test/helpers/mcp/server.mjs) records every exchange, and
// a stand-in model (test/helpers/mcp/model.mjs) asks for one call of its tool test_simple_text.
// Straight to the server, what the pinned client sends is held here: the 2026 discovery probe
// first, then the 2025-11-25 session (initialize, its session id and protocol version on every
// later request, the GET stream, the lists, the call), so the checks of suites/mcp/ model what a
// real client does. Then the same session through the reference gateway, clean (the same
// exchanges reach the server) and with one mcp fault (mcp-drop-session: the client loses the
// server, and our mcp.session.roundtrip fails on that fault: its detection row). Everything runs
// in one loopback-only network namespace per run.
//
// Needs the `claude` binary (as test/real/clients/real-client.test.ts does); skipped only when
// it is absent and GWC_REQUIRE_CLAUDE is not 1.
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { readMatrix } from '../../../scripts/detection-rows.mjs';
import { PROTOCOLS } from '../../../src/core/protocols.js';
import { CLAUDE_BIN, headerOf, methodsOf, runMcpInNamespace, type McpExchange, type NsResult } from '../../helpers/mcp/run.js';

const required = process.env.GWC_REQUIRE_CLAUDE === '1';
const available = existsSync(CLAUDE_BIN);
/** The client's own limit per run (about 3 s quiet); the namespace gets 30 s more. */
const CLAUDE_TIMEOUT_MS = 60_000;
const API_KEY = `gwc-mcp-real-key-${process.pid}`;
/** The text the stand-in model answers once the tool's result is in the conversation. */
const MODEL_TEXT = 'The MCP tool answered.';
const TOOL_TEXT = 'This is a simple text response for testing.';

/** The fault shown through the reference gateway, and the check of ours that catches it. */
const FAULT = 'mcp-drop-session';
const OUR_CHECK = 'mcp.session.roundtrip';
const NO_TOOL_TEXT = 'No MCP tool was offered.';
const reference = (fault?: string) => ({ args: ['reference', '--listen', '127.0.0.1:0', '--upstream', '{UPSTREAM}', ...(fault ? ['--fault', fault] : [])] });

const rpc = (run: NsResult) => run.server.filter((e) => e.method === 'POST').sort((a, b) => a.seq - b.seq);
const byMethod = (run: NsResult, m: string): McpExchange[] => run.server.filter((e) => methodsOf(e).includes(m));

describe.skipIf(!available && !required)('Claude Code as an MCP client (claude -p --mcp-config, type http)', () => {
  let straight: NsResult;
  let clean: NsResult;
  let faulty: NsResult;

  beforeAll(async () => {
    if (!available) throw new Error(`GWC_REQUIRE_CLAUDE=1 but ${CLAUDE_BIN} is absent (.ci/run installs it)`);
    // One after another: two cores, and each run is a few seconds.
    straight = await runMcpInNamespace('claude-straight', { job: 'claude', apiKey: API_KEY, timeoutMs: CLAUDE_TIMEOUT_MS });
    clean = await runMcpInNamespace('claude-reference', { job: 'claude', apiKey: API_KEY, gateway: reference(), timeoutMs: CLAUDE_TIMEOUT_MS });
    faulty = await runMcpInNamespace(`claude-${FAULT}`, { job: 'claude', apiKey: API_KEY, gateway: reference(FAULT), timeoutMs: CLAUDE_TIMEOUT_MS });
  }, 3 * (CLAUDE_TIMEOUT_MS + 40_000));

  it('straight, the client ends by itself with exit 0, having called the tool and handed its result to the model', () => {
    expect(straight.end.timedOut, straight.end.stderr).toBe(false);
    expect(straight.end.code, straight.end.stderr).toBe(0);
    expect(straight.end.stdout?.trim()).toBe(MODEL_TEXT);
    const results = (straight.model ?? []).flatMap((m) => m.toolResults) as Array<{ content: Array<{ text: string }> }>;
    expect(results.map((r) => r.content[0].text)).toEqual([TOOL_TEXT]);
  });

  it('first a probe of the 2026 stateless protocol (server/discover, MCP-Protocol-Version 2026-07-28, Mcp-Method), then initialize at 2025-11-25 when the server refuses it', () => {
    const [probe, init] = rpc(straight);
    expect(methodsOf(probe)).toEqual(['server/discover']);
    expect(headerOf(probe, 'mcp-protocol-version')).toEqual(['2026-07-28']);
    expect(headerOf(probe, 'mcp-method')).toEqual(['server/discover']);
    expect(headerOf(probe, 'mcp-session-id')).toEqual([]);
    expect(probe.status).toBe(400);
    expect(methodsOf(init)).toEqual(['initialize']);
    expect((init.body as { params: { protocolVersion: string } }).params.protocolVersion).toBe('2025-11-25');
    expect(headerOf(init, 'mcp-session-id')).toEqual([]);
    expect(init.answer?.['mcp-session-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('every request after initialize carries the session id it was given and MCP-Protocol-Version 2025-11-25', () => {
    const [init] = byMethod(straight, 'initialize');
    const sid = init.answer?.['mcp-session-id'];
    const later = straight.server.filter((e) => e.seq > init.seq || e.method === 'GET');
    expect(later.length).toBeGreaterThanOrEqual(6);
    for (const e of later) {
      expect(headerOf(e, 'mcp-session-id'), `${e.method} ${methodsOf(e)}`).toEqual([sid]);
      expect(headerOf(e, 'mcp-protocol-version'), `${e.method} ${methodsOf(e)}`).toEqual(['2025-11-25']);
    }
  });

  it('the session: initialized (202), the GET stream for server messages, the three lists, the call; no DELETE when it exits', () => {
    const [initialized] = byMethod(straight, 'notifications/initialized');
    expect(initialized.status).toBe(202);
    const gets = straight.server.filter((e) => e.method === 'GET');
    expect(gets).toHaveLength(1);
    expect(headerOf(gets[0], 'accept')).toEqual(['text/event-stream']);
    expect(gets[0].answer?.['content-type']).toBe('text/event-stream');
    const methods = rpc(straight).flatMap(methodsOf);
    expect(methods.slice(0, 3)).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
    expect([...methods.slice(3, 6)].sort()).toEqual(['prompts/list', 'resources/list', 'tools/list']);
    expect(methods.slice(6)).toEqual(['tools/call']);
    const [call] = byMethod(straight, 'tools/call');
    expect((call.body as { params: { name: string } }).params.name).toBe('test_simple_text');
    expect(call.answer?.['content-type']).toBe('text/event-stream');
    expect(straight.server.filter((e) => e.method === 'DELETE')).toEqual([]);
  });

  it('every POST accepts both answers (Accept: application/json, text/event-stream) and the credential never reaches the MCP server', () => {
    for (const e of rpc(straight)) expect(headerOf(e, 'accept'), methodsOf(e).join()).toEqual(['application/json, text/event-stream']);
    expect(JSON.stringify(straight.server)).not.toContain(API_KEY);
  });

  it('through the clean reference gateway the same session reaches the server: the same requests, the session id and protocol version on each, the tool called', () => {
    expect(clean.end.code, clean.end.stderr).toBe(0);
    expect(clean.end.stdout?.trim()).toBe(MODEL_TEXT);
    const shape = (r: NsResult) => r.server.map((e) => `${e.method} ${methodsOf(e).join()} ${e.status}`).sort();
    expect(shape(clean)).toEqual(shape(straight));
    const [init] = byMethod(clean, 'initialize');
    const sid = init.answer?.['mcp-session-id'];
    for (const e of clean.server.filter((x) => x.seq > init.seq || x.method === 'GET')) {
      expect(headerOf(e, 'mcp-session-id'), `${e.method} ${methodsOf(e)}`).toEqual([sid]);
      expect(headerOf(e, 'mcp-protocol-version'), `${e.method} ${methodsOf(e)}`).toEqual(['2025-11-25']);
    }
    expect(JSON.stringify(clean.server)).not.toContain(API_KEY);
  });

  it(`through the reference gateway with ${FAULT} the client loses the server after initialize, and ${OUR_CHECK} fails on that fault`, () => {
    // The client still ends with exit 0: it goes on without the MCP server, and the model is offered no tool.
    expect(faulty.end.code, faulty.end.stderr).toBe(0);
    expect(faulty.end.stdout?.trim()).toBe(NO_TOOL_TEXT);
    const seen = rpc(faulty).map((e) => [methodsOf(e).join(), e.status, headerOf(e, 'mcp-session-id').length]);
    // initialize answered with a session id; the next request arrives without it, and the server refuses it.
    expect(seen).toEqual([['server/discover', 400, 0], ['initialize', 200, 0], ['notifications/initialized', 400, 0]]);
    expect(byMethod(faulty, 'initialize')[0].answer?.['mcp-session-id']).toMatch(/^[0-9a-f-]{36}$/);
    const rows = readMatrix(new URL('../../detection/', import.meta.url), PROTOCOLS) as { faults: Record<string, Record<string, string>> };
    expect(rows.faults[FAULT]?.[OUR_CHECK]).toBe('fail');
  });
});
