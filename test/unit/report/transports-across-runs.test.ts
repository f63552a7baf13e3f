// compare and matrix on the socket routes: each sockets check's outcome per route, read back from
// two runs' results; compare lists the cells that differ (a route a run did not judge as "not
// judged") and the served routes when they differ, matrix has a row per check and route; both
// JSON shapes match their published schemas, and runs without socket checks carry nothing new.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { compareReports } from '../../../src/report/across-runs/compare.js';
import { consoleText, markdownText } from '../../../src/report/across-runs/compare-format.js';
import { buildMatrix, inputOfReport } from '../../../src/report/across-runs/matrix.js';
import { matrixMarkdown } from '../../../src/report/across-runs/matrix-markdown.js';
import { matrixHtml } from '../../../src/report/across-runs/matrix-html.js';
import { compareTransports } from '../../../src/report/across-runs/transports-compare.js';
import { type CheckResult, type RunReport } from '../../../src/report/shared/types.js';
import { madeUpReport } from '../../helpers/made-up-report.js';
import { ROOT } from '../../helpers/cli.js';

const result = (id: string, outcome: CheckResult['outcome'], evidence: Record<string, unknown> = {}): CheckResult => ({ id, title: id, area: id.split('.')[0], requirements: ['WS-UP-1'], level: 'MUST', outcome, message: `${id} ${outcome}`, expected: null, actual: null, evidence, durationMs: 1 });
const report = (results: CheckResult[], websockets: string[]): RunReport => madeUpReport(results, { declared: { protocols: ['responses', 'native'], websockets } });
const routes = (...rs: string[]) => ({ routes: rs.map((route) => ({ route })) });

// BASE: idle judged on realtime and failed there; NEW: realtime not served, idle judged (and failed) on responses instead.
const base = report([result('sockets.upgrade.carried', 'pass', routes('responses', 'realtime')), result('sockets.idle.kept', 'fail', { route: 'realtime' }), result('messages.path.preserved', 'pass')], ['realtime', 'responses']);
const now = report([result('sockets.upgrade.carried', 'pass', routes('responses')), result('sockets.idle.kept', 'fail', { route: 'responses' }), result('messages.path.preserved', 'pass')], ['responses']);
const schema = (file: string) => {
  const ajv = new Ajv({ allErrors: true, strict: true });
  addFormats.default(ajv);
  return ajv.compile(JSON.parse(readFileSync(path.join(ROOT, 'src', 'report', 'across-runs', file), 'utf8')));
};

describe('compare on socket routes', () => {
  it('names the cells that differ, a route moved under one outcome among them, and the served routes', () => {
    expect(compareTransports(base, now)).toEqual({
      cells: 4,
      changed: [
        { check: 'sockets.idle.kept', route: 'realtime', base: 'fail', now: null },
        { check: 'sockets.idle.kept', route: 'responses', base: null, now: 'fail' },
        { check: 'sockets.upgrade.carried', route: 'realtime', base: 'pass', now: null },
      ],
      served: { base: ['realtime', 'responses'], now: ['responses'] },
    });
    const c = compareReports(base, now, { base: 'b', new: 'n' });
    // The checks' own outcomes did not change: no regression, the route change shown beside them.
    expect(c.regressions).toBe(0);
    expect(consoleText(c)).toContain('websocket routes (each check\'s outcome per route): 3 of 4 cells differ\n           served: realtime, responses -> responses\n           sockets.idle.kept · realtime: fail -> (not judged)');
    expect(markdownText(c)).toContain('| sockets.idle.kept | responses | (not judged) | fail |');
    const validate = schema('compare.schema.json');
    expect(validate(JSON.parse(JSON.stringify(c))), JSON.stringify(validate.errors)).toBe(true);
  });

  it('carries nothing for runs without socket checks, and says so when every cell is the same', () => {
    const plain = report([result('messages.path.preserved', 'pass')], []);
    expect(compareTransports(plain, plain)).toBeUndefined();
    expect(compareReports(plain, plain, { base: 'b', new: 'n' })).not.toHaveProperty('transports');
    expect(consoleText(compareReports(base, base, { base: 'b', new: 'n' }))).toContain('websocket routes (each check\'s outcome per route): the 3 cells the same');
  });
});

describe('matrix on socket routes', () => {
  const m = buildMatrix([base, now].map((r, i) => inputOfReport(r, { folder: `run${i}`, source: `run${i}/report.json`, evidence: null })), { name: 'gw-conformance', version: '0.1.0' });

  it('has a row per sockets check and route any run judged, "-" (null) where a run did not', () => {
    expect(m.sockets).toEqual([
      { check: 'sockets.upgrade.carried', route: 'responses', cells: ['pass', 'pass'] },
      { check: 'sockets.upgrade.carried', route: 'realtime', cells: ['pass', null] },
      { check: 'sockets.idle.kept', route: 'realtime', cells: ['fail', null] },
      { check: 'sockets.idle.kept', route: 'responses', cells: [null, 'fail'] },
    ]);
    const validate = schema('matrix.schema.json');
    expect(validate(JSON.parse(JSON.stringify(m))), JSON.stringify(validate.errors)).toBe(true);
    expect(matrixMarkdown(m)).toContain('| sockets.idle.kept · realtime | **fail** | - |');
    expect(matrixHtml(m)).toContain('<table id="sockets">');
  });

  it('has no socket rows for runs without socket checks', () => {
    const plain = report([result('messages.path.preserved', 'pass')], []);
    const p = buildMatrix([inputOfReport(plain, { folder: 'p', source: 'p', evidence: null })], { name: 'gw-conformance', version: '0.1.0' });
    expect(p).not.toHaveProperty('sockets');
    expect(matrixMarkdown(p)).not.toContain('websocket check');
  });
});
