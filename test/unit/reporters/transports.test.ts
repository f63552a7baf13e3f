// The transport table (src/core/transports.ts, src/reporters/transports.ts): each cell is a
// sockets check's outcome on the route its evidence names, a route the check did not judge shows
// '-', served routes are marked, MCP and A2A are one line each, gateway text stays inert, and a
// run without such checks shows nothing.
import { describe, expect, it } from 'vitest';
import { hasInvisible } from '../../../src/core/inert.js';
import { routesOfEvidence, socketWord, transportTable } from '../../../src/core/transports.js';
import { capabilityHtml, capabilityLines } from '../../../src/reporters/capabilities.js';
import { transportHtml, transportLines } from '../../../src/reporters/transports.js';
import { summarize, type CheckResult, type RunReport } from '../../../src/report/shared/types.js';

const r = (id: string, outcome: CheckResult['outcome'], evidence: Record<string, unknown> = {}, message = 'm'): CheckResult => ({ id, title: 't', area: id.split('.')[0], requirements: ['X-1'], level: 'MUST', outcome, message, expected: null, actual: null, evidence, durationMs: 1 });

const results = [
  r('sockets.upgrade.carried', 'pass', { routes: [{ route: 'responses' }, { route: 'realtime' }] }),
  r('sockets.idle.kept', 'fail', { route: 'realtime' }, 'realtime: cut after 60 s\x1b[2J'),
  r('sockets.upgrade.refusal', 'pass', { routes: [{ route: 'responses' }, { route: 'realtime' }, { route: 'live' }] }),
  r('sockets.ping.answered', 'skip', {}),
  r('mcp.session.roundtrip', 'pass'),
  r('mcp.session.isolated', 'fail'),
  r('a2a.card.reachable', 'info'),
  r('messages.path.preserved', 'fail', { route: 'responses' }),
];
const report = (rs: CheckResult[], websockets?: string[]) => ({ declared: { protocols: ['messages', 'responses', 'chat', 'mcp'], ...(websockets ? { websockets } : {}) }, results: rs, summary: summarize(rs) }) as unknown as RunReport;

describe('the transport table', () => {
  it('reads the routes a check judged from its evidence, and nothing else', () => {
    expect(routesOfEvidence({ route: 'live' })).toEqual(['live']);
    expect(routesOfEvidence({ routes: [{ route: 'responses' }, { nope: 1 }, 'x'] })).toEqual(['responses']);
    expect(routesOfEvidence({})).toEqual([]);
  });

  it('has a cell per check and judged route, the areas counted, other areas left out', () => {
    const t = transportTable(results, { protocols: ['mcp'], websockets: ['responses', 'realtime'] })!;
    expect(t.routes).toEqual(['responses', 'realtime', 'live']);
    expect(t.rows.map((x) => [x.check, Object.fromEntries(x.cells)])).toEqual([
      ['sockets.upgrade.carried', { responses: 'pass', realtime: 'pass' }],
      ['sockets.idle.kept', { realtime: 'fail' }],
      ['sockets.upgrade.refusal', { responses: 'pass', realtime: 'pass', live: 'pass' }],
      ['sockets.ping.answered', {}],
    ]);
    expect(t.areas).toEqual([
      { area: 'mcp', declared: true, counts: { pass: 1, fail: 1 }, notPassing: [{ id: 'mcp.session.isolated', outcome: 'fail' }] },
      { area: 'a2a', declared: false, counts: { info: 1 }, notPassing: [{ id: 'a2a.card.reachable', outcome: 'info' }] },
    ]);
  });

  it('prints the grid with served routes marked and a dash where a check did not judge', () => {
    const lines = transportLines(report(results, ['responses', 'realtime']));
    const row = (id: string) => lines.find((l) => l.trim().startsWith(id))!.trim().split(/\s+/);
    expect(lines.find((l) => l.includes('websocket check'))!.trim().split(/\s+/)).toEqual(['websocket', 'check', 'responses*', 'realtime*', 'live']);
    expect(row('sockets.upgrade.carried')).toEqual(['sockets.upgrade.carried', 'ok', 'ok', '-']);
    expect(row('sockets.idle.kept')).toEqual(['sockets.idle.kept', '-', 'FAIL', '-']);
    expect(row('sockets.ping.answered')).toEqual(['sockets.ping.answered', '-', '-', '-']);
    expect(lines).toContain('  mcp (declared): 1 pass, 1 fail; not passing: mcp.session.isolated fail');
    expect(lines).toContain('  a2a (not declared: findings are info): 1 info; not passing: a2a.card.reachable info');
  });

  it('says when no route is served, and keeps gateway text inert in the HTML', () => {
    expect(transportLines(report(results, []))).toContain('  no WebSocket route declared served (--websockets none): only refusals are judged');
    const html = transportHtml(report(results, ['realtime']));
    expect(html).toContain('<th>realtime*</th>');
    expect(html).toContain('class="cap o-fail"');
    expect(hasInvisible(html)).toBe(false);
    expect(html).not.toContain('\x1b');
  });

  it('shows nothing for a run without sockets, MCP or A2A checks', () => {
    const plain = [r('messages.path.preserved', 'pass')];
    expect(transportTable(plain, { protocols: ['messages'] })).toBeNull();
    expect(transportLines(report(plain))).toEqual([]);
    expect(transportHtml(report(plain))).toBe('');
  });

  it("gives the capability matrix a websocket column: per protocol, the worst outcome on its served socket routes", () => {
    const t = transportTable(results, { protocols: ['mcp'], websockets: ['responses', 'realtime'] });
    expect(socketWord(t, ['responses', 'realtime'])).toBe('FAIL');
    expect(socketWord(t, ['responses'])).toBe('ok');
    expect(socketWord(t, ['live'])).toBe('n/s');
    expect(socketWord(t, [])).toBe('-');
    expect(socketWord(null, ['live'])).toBe('-');
    const cell = (protocol: string) => ({ protocol, route: 'm', feature: 'tools', mode: 'json', state: 'pass', required: false, evidence: [] });
    const caps = r('capabilities.responses', 'pass', { cells: [cell('responses'), cell('messages')] });
    const lines = capabilityLines(report([caps, ...results], ['responses', 'realtime']));
    const row = (p: string) => lines.find((l) => l.trim().startsWith(`${p} m`))!.trim().split(/\s+/);
    expect(lines.find((l) => l.includes('protocol route'))!.trim().split(/\s+/)).toEqual(['protocol', 'route', 'tools', 'websocket']);
    expect(row('responses')).toEqual(['responses', 'm', 'ok/-', 'FAIL']);
    expect(row('messages')).toEqual(['messages', 'm', 'ok/-', '-']);
    expect(capabilityHtml(report([caps, ...results], ['responses', 'realtime']))).toContain('<th>websocket</th>');
    // Without socket checks the matrix is as before.
    expect(capabilityLines(report([caps])).find((l) => l.includes('protocol route'))!.trim().split(/\s+/)).toEqual(['protocol', 'route', 'tools']);
  });
});
