// The WebSocket checks in the reports: a failing socket check's evidence (the upgrade both sides,
// the frame transcript) in report.json and report.html, JUnit carrying the checks like any other,
// the report valid against its schema, and the credential masked everywhere, the `key` in a Gemini
// Live URL included.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { ROOT } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/in-process.js';

const SECRET = 'sk-gwc-SOCKET-SECRET-4711';

describe('socket checks in the reports', () => {
  it('a failing socket check: evidence with its transcript, JUnit and JSON carry it, the credential masked in every report', async () => {
    const out = mkdtempSync(join(tmpdir(), 'gwc-sockets-'));
    const r = await cliInProcess(['demo', '--fault', 'ws-drop-stream-id', '--only', 'sockets.upgrade.carried', '--only', 'sockets.frames.unchanged', '--seed', '3', '--out', out, '--token', SECRET]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/FAIL\s+sockets\.frames\.unchanged/);
    expect(r.stdout).toMatch(/dropped stream_id/);
    const json = readFileSync(join(out, 'report.json'), 'utf8');
    const xml = readFileSync(join(out, 'junit.xml'), 'utf8');
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    for (const [name, text] of [['report.json', json], ['junit.xml', xml], ['report.html', html], ['stdout', r.stdout]]) expect(text.includes('SOCKET-SECRET'), name).toBe(false);
    const report = JSON.parse(json);
    const ajv = new Ajv({ allErrors: true });
    addFormats.default(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'src/report/shared/run-report.schema.json'), 'utf8')));
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    const failed = report.results.find((x: { id: string }) => x.id === 'sockets.frames.unchanged');
    expect(failed.outcome).toBe('fail');
    const frames = failed.evidence.socketFrames;
    expect(frames.total).toBeGreaterThan(0);
    expect(frames.lines.length).toBeLessThanOrEqual(60);
    expect(frames.lines.some((l: { type: string; dir: string; seen: string }) => l.type === 'response.create' && l.dir === 'up' && l.seen === 'upstream')).toBe(true);
    // The Live route's upgrade URL carries the key: the upstream's view of it is masked.
    const carried = report.results.find((x: { id: string }) => x.id === 'sockets.upgrade.carried');
    expect(carried.outcome).toBe('pass');
    const live = carried.evidence.routes.find((e: { route: string }) => e.route === 'live');
    expect(live.upstream.url).toMatch(/[?&]key=\*\*\*/);
    expect(html).toContain('<h3>WebSocket messages</h3>');
    expect(xml).toMatch(/<testcase [^>]*name="sockets\.frames\.unchanged: /);
    expect(xml).toMatch(/<testcase [^>]*name="sockets\.upgrade\.carried: /);
  });
});

describe('the HTML report of a socket check', () => {
  it('shows its messages in a table, the gateway\'s text escaped', async () => {
    const { framesTable } = await import('../../src/reporters/html/frames.js');
    const html = framesTable({ lines: [{ dir: 'up', seen: 'upstream', atMs: 1.5, binary: false, bytes: 30, type: 'response.create', text: '<script>alert(1)</script>' }], total: 61, left: 1 });
    expect(html).toContain('client → upstream');
    expect(html).toContain('response.create');
    expect(html).not.toContain('<script>');
    expect(html).toContain('1 more messages in report.json');
    expect(framesTable({ lines: [], total: 0, left: 0 })).toBe('');
  });
});
