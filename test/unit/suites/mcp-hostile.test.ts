// The mcp checks stay calm whatever an MCP gateway answers: an endless event stream, a flood of
// JSON-RPC messages, messages without an id, an initialize that is never answered. A small
// hostile gateway forwards each request to the run's recording upstream (the readiness canary
// goes through as it came), then answers the client's MCP requests as its case says. Each run
// ends with exit 1 (verdicts, never "could not run"), every mcp check has a verdict and none
// passes, the report is valid, and the credential is in no output.
import http from 'node:http';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertValidReport } from '../../../src/report/shared/validate.js';
import type { RunReport } from '../../../src/report/shared/types.js';
import { MCP_CHECKS } from '../../../suites/mcp/index.js';
import { freePort } from '../../helpers/cli.js';
import { cliInProcess } from '../../helpers/in-process.js';
import { cleanupAfterAll } from '../../helpers/cleanup.js';

const { cleanup, tempDir } = cleanupAfterAll();
const TOKEN = 'sk-gwc-hostile-mcp-0123456789abcdef';
/** Each check's time limit in these runs (the runner's --timeout-ms). */
const LIMIT_MS = 4000;

type Answer = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void;
const event = (data: string) => `event: message\ndata: ${data}\n\n`;
const note = (i: number) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `flood ${i}` } });
const sse = (res: http.ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'mcp-hostile-session' });

const CASES: Record<string, Answer> = {
  // An event every 20 ms, for ever (the client's bounds end it).
  'endless-stream': (_req, _body, res) => {
    sse(res);
    let i = 0;
    const t = setInterval(() => res.write(event(note(i++))), 20);
    res.on('close', () => clearInterval(t));
  },
  // 200 000 messages written at once, no result among them.
  flood: (_req, _body, res) => {
    sse(res);
    const chunk = Array.from({ length: 1000 }, (_, i) => event(note(i))).join('');
    for (let i = 0; i < 200 && !res.destroyed; i++) res.write(chunk);
    res.end();
  },
  // Every answer a result without an id.
  'no-id': (_req, _body, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'mcp-hostile-session' });
    res.end(JSON.stringify({ jsonrpc: '2.0', result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'x', version: '1' } } }));
  },
  // initialize is never answered (the canary's is, so the run gets past the readiness gate).
  'initialize-never': (_req, body, res) => {
    if (/"initialize"/.test(body) && !/readiness canary/.test(body)) return;
    res.writeHead(202).end();
  },
};

/** The hostile gateway: forwards to the upstream on `upstreamPort`, answers the checks' MCP requests by `answer`. */
async function hostile(upstreamPort: number, answer: Answer): Promise<string> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const up = http.request({ host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers: req.headers }, (ur) => {
        // The canary (a plain scripted answer) goes back as it came; every MCP answer is the case's.
        if (/readiness canary/.test(body)) {
          res.writeHead(ur.statusCode ?? 502, ur.headers);
          ur.pipe(res);
          return;
        }
        ur.resume();
        answer(req, body, res);
      });
      up.on('error', () => res.destroy());
      up.end(body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanup.push(() => (server.closeAllConnections(), server.close()));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

describe('the mcp checks against hostile MCP answers', () => {
  for (const [name, answer] of Object.entries(CASES)) {
    it(`${name}: every check has a verdict within its limit, none passes, the report is valid, the credential is nowhere`, async () => {
      const upstreamPort = await freePort();
      const target = await hostile(upstreamPort, answer);
      const out = tempDir('gwc-mcp-hostile-');
      const r = await cliInProcess(['run', '--target', target, '--upstream-listen', `127.0.0.1:${upstreamPort}`, '--protocols', 'mcp', '--only', 'mcp', '--timeout-ms', String(LIMIT_MS), '--token', TOKEN, '--reporter', 'json', '--reporter', 'console', '--out', out], { timeoutMs: 170_000 });
      expect(r.code, r.stderr).toBe(1);
      const text = readFileSync(join(out, 'report.json'), 'utf8');
      const report = JSON.parse(text) as RunReport;
      assertValidReport(report);
      expect(report.results.map((x) => x.id).sort()).toEqual(MCP_CHECKS.map((c) => c.id).sort());
      expect(report.results.filter((x) => x.outcome === 'pass').map((x) => `${x.id}: ${x.message}`)).toEqual([]);
      // Each check ended within its limit, plus the runner's bookkeeping after the limit fires: 1.5 s
      // in test/cli/hostile.test.ts; 1.7 s seen here with both cores taken by other runs, so 3 s.
      for (const x of report.results) expect(x.durationMs, x.id).toBeLessThanOrEqual(LIMIT_MS + 3000);
      for (const t of [text, r.stdout, r.stderr]) expect(t).not.toContain(TOKEN);
    }, 180_000);
  }
});
