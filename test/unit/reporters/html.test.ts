// The HTML report (src/reporters/html/): escaping of hostile gateway data, self-containment,
// the size bound, what a failure shows; then the page in a real browser (Debian's chromium via
// playwright-core) opened from file://: no console error, no dialog, no request but the page.
//
// The browser test needs /usr/bin/chromium (the run is the CLI called in this process). Without chromium
// it is skipped, unless GWC_REQUIRE_CHROMIUM=1 (CI), where it fails.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareJsonText, diffBytes } from '../../../src/core/json-diff.js';
import { judgeDelivery, oracleEvidence, DEFAULT_BOUNDS } from '../../../src/core/oracle.js';
import { escapeAttr, escapeText } from '../../../src/core/inert.js';
import { CSP } from '../../../src/reporters/html/assets.js';
import { HTML_LIMITS } from '../../../src/reporters/html/escape.js';
import { markDifference } from '../../../src/reporters/html/evidence.js';
import { htmlParts, htmlReport, loadCatalog } from '../../../src/reporters/html/page.js';
import { writeReports } from '../../../src/reporters/index.js';
import { parseTimeline } from '../../../src/reporters/html/timeline.js';
import { summarize, type CheckResult, type RunReport } from '../../../src/report/shared/types.js';
import { madeUpReport } from '../../helpers/made-up-report.js';
import { exitCodeOf } from '../../../src/report/shared/policy.js';
import { cliInProcess } from '../../helpers/in-process.js';
import { hasChromium, launchChromium, requireChromium, watchPage } from '../../helpers/chromium.js';
import { NO_IDLE_PROBE } from '../../helpers/untimed.js';

// What a hostile gateway may answer: markup that would run, break out of elements or CDATA,
// a javascript: URL, ANSI colour escapes, C0/C1 controls, a bidi override, a lone surrogate
// (what a report read from JSON can hold where the gateway sent invalid UTF-8) and U+FFFD.
const HOSTILE = [
  '<script>window.__pwned=1;alert(1)</script>',
  '</textarea></title></style></pre></details><textarea>',
  '<img src=x onerror="window.__pwned=2;alert(2)">',
  '<a href="javascript:alert(3)">click</a> javascript:alert(3)',
  '<svg onload=alert(4)>]]><![CDATA[ x ]]>',
  '" onmouseover="alert(5)" x=\'',
  '\u001b[31mred\u001b[0m \u0000\u0007\u0008\u000b\u007f\u0085\u009b \u202eevil\u202c \ud800 lone \udfff \ufffd',
].join('\n');

const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function result(over: Partial<CheckResult> & Pick<CheckResult, 'id'>): CheckResult {
  return { title: `title of ${over.id}`, area: 'messages', requirements: ['MSG-BODY-1'], level: 'MUST', outcome: 'pass', message: 'held', expected: null, actual: null, evidence: {}, durationMs: 12, ...over };
}

const report = (results: CheckResult[], over: Partial<RunReport> = {}): RunReport =>
  madeUpReport(results, { upstream: 'http://127.0.0.1:18080', seed: 42, startedAt: '2026-11-21T12:00:00.000Z', finishedAt: '2026-11-21T12:00:10.000Z', durationMs: 10_000, ...over });

/** A stream failure with the oracle's own evidence: 6 events sent 300 ms apart, all held to the end. */
function streamFailure(names = ['message_start', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_stop']): CheckResult {
  const sent = names.map((_, i) => 1000 + 300 * i);
  const arrivals = names.map(() => 1000 + 300 * (names.length - 1) + 1);
  const verdict = judgeDelivery(sent, arrivals, 1000, names, DEFAULT_BOUNDS);
  return result({ id: 'streaming.delivery.incremental', area: 'streaming', requirements: ['SSE-INC-1'], outcome: 'fail', message: verdict.summary, expected: 'no burst of events sent apart, every event within 1000 ms of its sending', actual: verdict.delivery, evidence: { ...oracleEvidence(verdict, DEFAULT_BOUNDS), client: { status: 200, headers: [['content-type', 'text/event-stream']] }, upstream: { url: '/v1/messages', framesSent: names.length } } });
}

/** A body failure with the harness's own diffs: a big integer rounded; a final line feed dropped. */
const SENT = '{"a":1,"span":12345678901234567890}';
const GOT = '{"a":1,"span":12345678901234567000}';
const BYTES = diffBytes(Buffer.from(`${GOT}\n`), Buffer.from(GOT))!;
function bodyFailure(): CheckResult {
  const sent = SENT;
  const got = GOT;
  const { diffs } = compareJsonText(sent, got);
  return result({
    id: 'messages.body.semantic',
    outcome: 'fail',
    message: 'the body changed on the way',
    expected: 'the body as sent',
    actual: '/span: value changed',
    evidence: { fixtures: [{ fixture: 'newline.json', evidence: { byteDiff: BYTES } }, { fixture: 'numbers.json', evidence: { diffs, upstream: { method: 'POST', url: '/v1/messages', headers: [['authorization', 'Bearer sk-live-UNMASKED']], body: got } } }] },
  });
}

/** A failure whose every gateway-facing field carries the hostile text. */
function hostileFailure(): CheckResult {
  return result({
    id: 'messages.response.json',
    requirements: ['MSG-RESP-2'],
    outcome: 'fail',
    message: `the error response is an HTML page: ${HOSTILE}`,
    expected: 'application/json body',
    actual: HOSTILE,
    evidence: {
      client: { status: 400, contentType: `text/html${HOSTILE}`, headers: [[`x-evil${HOSTILE}`, HOSTILE], ['x-api-key', 'sk-live-UNMASKED']], body: HOSTILE },
      upstream: { method: 'POST', url: `/v1/messages?key=AIzaUNMASKED&next=javascript:alert(6)${HOSTILE}`, body: '{}' },
      diffs: [{ path: `/x${HOSTILE}`, kind: 'changed', expected: 'a', actual: HOSTILE }],
      byteDiff: { offset: 3, expectedLength: 9, actualLength: 9, expectedContext: JSON.stringify('abcdef'), actualContext: JSON.stringify(`abc${HOSTILE}`) },
      timeline: `  #  event                    sent ms   arrived       lag\n  0  ${HOSTILE.slice(0, 40).replace(/\n/g, ' ')}     1.0       2.0       1.0`,
      [`key${HOSTILE}`]: HOSTILE,
    },
  });
}

/** A load check's evidence (its percentiles and counts per second are charted) beside hostile text. */
function loadResult(): CheckResult {
  const pct = (k: number) => ({ count: 40, p50: k, p95: 2 * k, p99: 3 * k, p999: 4 * k, max: 5 * k });
  return result({ id: 'load.perf.cost', area: 'load', requirements: ['LOAD-PERF-1'], level: 'INFO', outcome: 'info', message: HOSTILE, evidence: { rate: 20, direct: pct(1), through: pct(1.5), throughput: { direct: [20, 20], through: [19, 21] }, failuresPerSecond: { direct: [0, 0], through: [1, 0] }, [`note${HOSTILE}`]: HOSTILE } });
}

/** Every start tag of the page, after the one inline style and script (checked by hash) are cut out. */
function tagsOutsideStyleAndScript(html: string) {
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1];
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1];
  const rest = html.replace(style, '').replace(script, '');
  return { style, script, rest };
}

const TAGS = new Set('html head meta title style body header h1 h2 h3 h4 main div span b p a pre code mark table thead tbody tr th td details summary figure figcaption svg desc line text circle rect polyline g fieldset legend label input button footer script'.split(' '));
const ATTRS = new Set('lang charset http-equiv content name class id placeholder data-outcome data-area data-level data-preset href title colspan type value checked hidden viewBox width height role aria-label x y x1 x2 y1 y2 cx cy r points transform text-anchor'.split(' '));

/** Parses the markup strictly: every `<` opens a known tag whose attributes are known and quoted. */
function markupOf(html: string) {
  const { rest } = tagsOutsideStyleAndScript(html);
  const tags: Array<{ name: string; attrs: Array<[string, string]> }> = [];
  for (const m of rest.matchAll(/</g)) {
    const at = m.index!;
    const tail = rest.slice(at, at + 20000);
    if (tail.startsWith('<!DOCTYPE html>') || /^<\/[a-z0-9]+>/.test(tail)) continue;
    const t = /^<([a-zA-Z][a-zA-Z0-9]*)((?:\s+[a-zA-Z][a-zA-Z0-9:-]*(?:="[^"<>]*")?)*)\s*\/?>/.exec(tail);
    if (!t) throw new Error(`not a well-formed tag at ${at}: ${JSON.stringify(tail.slice(0, 80))}`);
    const attrs = [...t[2].matchAll(/\s+([a-zA-Z][a-zA-Z0-9:-]*)(?:="([^"]*)")?/g)].map((a) => [a[1], a[2] ?? ''] as [string, string]);
    tags.push({ name: t[1], attrs });
  }
  return tags;
}

describe('escaping', () => {
  it('escapeText and escapeAttr leave no markup, and show invisible characters as escapes', () => {
    const t = escapeText(HOSTILE);
    expect(t.replace(/<span class="ctl">[^<]*<\/span>/g, '')).not.toMatch(/[<>"']/);
    expect(t).toContain('&lt;script&gt;window.__pwned=1;alert(1)&lt;/script&gt;');
    expect(t).toContain('&lt;/textarea&gt;');
    expect(t).toContain(']]&gt;');
    expect(t).toContain('<span class="ctl">\\e</span>[31mred');
    expect(t).toContain('<span class="ctl">\\u202e</span>evil');
    expect(t).toContain('<span class="ctl">\\ud800</span> lone <span class="ctl">\\udfff</span>');
    expect(t).not.toMatch(RAW_CONTROL);
    expect(t).not.toMatch(LONE_SURROGATE);
    const a = escapeAttr(HOSTILE);
    expect(a).not.toMatch(/[<>"']/);
    expect(a).not.toMatch(RAW_CONTROL);
    expect(a).not.toMatch(LONE_SURROGATE);
    // A valid surrogate pair (an emoji) and line breaks are kept as they are.
    expect(escapeText('a 😀\nb')).toBe('a 😀\nb');
    expect(escapeText('a\nb', true)).toBe('a<span class="ctl">\\n</span>b');
  });

  it('a report full of hostile gateway data renders as text only: known tags, quoted known attributes, links only to #', () => {
    const html = htmlReport(
      report([hostileFailure(), bodyFailure(), streamFailure([`</svg><script>alert(7)</script>${HOSTILE.slice(0, 30)}`, 'b', 'c']), loadResult()], {
        target: `http://127.0.0.1:8080/"><script>alert(8)</script>`,
        unmatchedRequests: [{ method: HOSTILE, url: `/x?key=AIzaUNMASKED${HOSTILE}`, reason: HOSTILE, receivedWall: HOSTILE }],
      }),
    );
    const tags = markupOf(html);
    for (const t of tags) {
      expect(TAGS.has(t.name), `tag <${t.name}>`).toBe(true);
      for (const [k, v] of t.attrs) {
        expect(ATTRS.has(k), `attribute ${k} on <${t.name}>`).toBe(true);
        if (k === 'href') expect(v).toMatch(/^#/);
      }
    }
    expect(tags.filter((t) => t.name === 'script')).toHaveLength(1);
    expect(tags.filter((t) => t.name === 'style')).toHaveLength(1);
    // The load check's two charts are among them (beside the two stream timelines).
    expect(tags.filter((t) => t.name === 'svg')).toHaveLength(4);
    expect(tags.filter((t) => t.name === 'desc')).toHaveLength(2);
    // The hostile text is there, as text.
    expect(html).toContain('&lt;script&gt;window.__pwned=1;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=&quot;window.__pwned=2;alert(2)&quot;&gt;');
    expect(html).toContain('&lt;/svg&gt;&lt;script&gt;alert(7)');
    expect(html).not.toMatch(RAW_CONTROL);
    expect(html).not.toMatch(LONE_SURROGATE);
    // Written as UTF-8 it is valid UTF-8, and reads back the same.
    const bytes = Buffer.from(html, 'utf8');
    expect(new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toBe(html);
    // Credentials that slipped into evidence unmasked are masked on the page too.
    expect(html).not.toContain('UNMASKED');
    expect(html).toContain('Bearer ***');
  });

  it('the inline style and script are exactly those the policy allows by hash; nothing else may load', () => {
    const html = htmlReport(report([streamFailure()]));
    const { style, script } = tagsOutsideStyleAndScript(html);
    const hash = (s: string) => createHash('sha256').update(s).digest('base64');
    expect(CSP).toContain(`script-src 'sha256-${hash(script)}'`);
    expect(CSP).toContain(`style-src 'sha256-${hash(style)}'`);
    expect(CSP).toMatch(/^default-src 'none';/);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${CSP}">`);
  });

  it('is written to report.html in pieces, byte for byte the page htmlReport gives', () => {
    const r = report([hostileFailure(), bodyFailure(), streamFailure(), loadResult()]);
    const dir = mkdtempSync(join(tmpdir(), 'gwc-html-parts-'));
    expect(writeReports(r, ['html'], dir, () => {})).toEqual([join(dir, 'report.html')]);
    expect(readFileSync(join(dir, 'report.html')).equals(Buffer.from(htmlReport(r), 'utf8'))).toBe(true);
    expect([...htmlParts(r)].length).toBe(r.results.length + 2);
    // A page that fails half way (a row that cannot be rendered) leaves the earlier report as it was, and no piece of the new one.
    const broken = report([hostileFailure(), { ...bodyFailure(), requirements: null as unknown as string[] }]);
    expect(() => writeReports(broken, ['html'], dir, () => {})).toThrow();
    expect(readFileSync(join(dir, 'report.html')).equals(Buffer.from(htmlReport(r), 'utf8'))).toBe(true);
    expect(readdirSync(dir)).toEqual(['report.html']);
  });
});

describe('self-contained', () => {
  it('loads nothing: no URL in any tag, style or script; no src; every href is a #fragment', () => {
    const html = htmlReport(report([hostileFailure(), bodyFailure(), streamFailure(), loadResult(), result({ id: 'messages.path.preserved', requirements: ['MSG-PATH-1'] })]));
    const { style, script } = tagsOutsideStyleAndScript(html);
    for (const code of [style, script]) expect(code).not.toMatch(/https?:|url\(|@import|\/\/[a-z]|fetch|XMLHttpRequest|import\(|src/i);
    const tags = markupOf(html);
    const attrValues = tags.flatMap((t) => t.attrs);
    expect(attrValues.filter(([k]) => k === 'src')).toEqual([]);
    expect(attrValues.filter(([, v]) => /https?:|javascript:|data:|\/\//i.test(v))).toEqual([]);
    const hrefs = attrValues.filter(([k]) => k === 'href').map(([, v]) => v);
    expect(hrefs.length).toBeGreaterThan(0);
    for (const h of hrefs) expect(h).toMatch(/^#[A-Za-z0-9._%-]+$/);
    // http(s) URLs appear only as text (the target and upstream addresses, gateway data).
    const tagText = [...html.matchAll(/<[a-zA-Z][^>]*>/g)].map((m) => m[0]).join('');
    expect(tagText).not.toMatch(/https?:\/\//);
  });
});

describe('content', () => {
  it('a summary by area and level, the run settings, and a row per check with its requirement text from the catalog', () => {
    const catalog = loadCatalog();
    const text = catalog.find((c) => c.id === 'SSE-INC-1')!.text!;
    expect(text.length).toBeGreaterThan(20);
    const r = report([streamFailure(), bodyFailure(), result({ id: 'messages.path.preserved', requirements: ['MSG-PATH-1'] }), result({ id: 'x.info', level: 'INFO', outcome: 'info', area: 'discovery' })], { seed: 987654, declared: { protocols: ['messages', 'native'] } } as Partial<RunReport>);
    const html = htmlReport(r);
    expect(html).toContain('seed <b>987654</b>');
    expect(html).toContain('harness <b>gw-conformance 0.1.0</b>');
    expect(html).toContain('target <b>http://127.0.0.1:8080</b>');
    expect(html).toContain('declared <b>messages, native</b>');
    expect(html).toContain(escapeText(text));
    // Summary tables: one row per area and per level with the counts by outcome.
    expect(html).toMatch(/<tr><td>messages<\/td><td class="hot">1<\/td><td class="zero">0<\/td><td class="">1<\/td><td>2<\/td><\/tr>/);
    expect(html).toMatch(/<tr><td>MUST<\/td><td class="hot">2<\/td><td class="zero">0<\/td><td class="">1<\/td><td>3<\/td><\/tr>/);
    // A row per check, failures first, each a deep-link target with its filter data.
    const ids = [...html.matchAll(/<details class="check" id="([^"]+)" data-outcome="([^"]+)" data-area="([^"]+)" data-level="([^"]+)">/g)].map((m) => m.slice(1).join(' '));
    expect(ids).toEqual(['streaming.delivery.incremental fail streaming MUST', 'messages.body.semantic fail messages MUST', 'x.info info discovery INFO', 'messages.path.preserved pass messages MUST']);
    expect(html).toContain('<a class="permalink" href="#messages.body.semantic"');
    // One filter checkbox per outcome, area and level present.
    for (const [name, v] of [['outcome', 'fail'], ['outcome', 'info'], ['outcome', 'pass'], ['area', 'discovery'], ['area', 'streaming'], ['level', 'INFO']])
      expect(html).toContain(`<input type="checkbox" name="${name}" value="${v}" checked>`);
    expect(html).not.toContain('value="warn"');
  });

  it('the smallest diff: the JSON pointer and the differing characters marked, the byte offset with its context', () => {
    const html = htmlReport(report([bodyFailure()]));
    expect(html).toContain('<code class="ptr">/span</code>');
    expect(html).toContain('12345678901234567<mark>89</mark>0');
    expect(html).toContain('12345678901234567<mark>00</mark>0');
    expect(BYTES).toMatchObject({ offset: 35, expectedLength: 36, actualLength: 35 });
    expect(html).toContain('First differing byte at offset <b>35</b> (sent 36 bytes, got 35)');
    expect(html).toContain('<mark><span class="ctl">\\n</span></mark>');
    expect(html).toContain('fixture <b>numbers.json</b>');
    expect(html).toContain('fixture <b>newline.json</b>');
    expect(markDifference('abcXdef', 'abcdef')).toEqual(['abc<mark>X</mark>def', 'abc<mark><span class="gap">∅</span></mark>def']);
  });

  it('a stream timeline becomes an SVG chart: a sent and an arrived mark per event, the lag bound as a line', () => {
    const names = ['message_start', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_stop'];
    const f = streamFailure(names);
    const rows = parseTimeline((f.evidence as { timeline: string }).timeline);
    expect(rows.map((r) => [r.index, r.name, r.sent])).toEqual(names.map((n, i) => [i, n, 300 * i]));
    expect(rows.every((r) => r.arrived === 1501)).toBe(true);
    const html = htmlReport(report([f]));
    const svg = /<svg[\s\S]*?<\/svg>/.exec(html)![0];
    expect(svg.match(/<circle class="sent" cx/g)).toHaveLength(6 + 1); // + the legend
    // The first two events arrived more than the coarse bound (1000 ms) after they were sent.
    expect(svg.match(/<rect class="arrived late" x/g)).toHaveLength(2 + 1);
    expect(svg.match(/<rect class="arrived" x/g)).toHaveLength(4 + 1);
    expect(svg).toContain('<polyline class="bound" points="');
    expect(html).toContain('6 events; 2 arrived later than the 1000 ms lag bound');
  });

  it('both sides of the exchange are shown for a failure, with credential headers masked', () => {
    const html = htmlReport(report([hostileFailure()]));
    expect(html).toContain('<h4>Upstream side</h4>');
    expect(html).toContain('<h4>Client side</h4>');
    expect(html).toContain('<tr><th>x-api-key</th><td>***</td></tr>');
    expect(html).toContain('?key=***');
  });

  it('a failure shows the requests the client sent and its replay (command and curl lines) as text', () => {
    const hostileCurl = `curl -X POST http://127.0.0.1:8080/v1/messages --data-binary '${HOSTILE}'`;
    const r = result({ id: 'messages.body.semantic', outcome: 'fail', evidence: { sent: [{ method: 'POST', path: '/v1/messages', auth: 'bearer', headers: [['x-api-key', 'sk-live-UNMASKED']], body: HOSTILE, bodyBytes: 9 }], replay: { command: 'gw-conformance run --only messages.body.semantic --seed 42', curl: [hostileCurl], credential: 'the credential is read from $GWC_TOKEN' } } });
    const html = htmlReport(report([r]));
    expect(html).toContain('<h3>Replay</h3>');
    expect(html).toContain('<pre>gw-conformance run --only messages.body.semantic --seed 42</pre>');
    expect(html).toContain(`<pre>${escapeText(hostileCurl.slice(0, 120))}`);
    expect(html).toContain('<h3>Requests the client sent</h3><div class="sides"><div class="side"><h4>Request the client sent</h4>');
    expect(html).not.toContain('UNMASKED');
    for (const t of markupOf(html)) expect(TAGS.has(t.name), t.name).toBe(true);
    // Each command whole on the page has a copy button (shown by the script); the curl line too.
    expect(html).toContain('<div class="cmd"><pre>gw-conformance run --only messages.body.semantic --seed 42</pre><button type="button" class="copy" hidden>copy</button></div>');
    expect(html.match(/<button type="button" class="copy" hidden>/g)).toHaveLength(2);
    // A command too long to show whole gets none (copying it would copy a cut command).
    const long = htmlReport(report([result({ ...r, evidence: { replay: { command: `gw-conformance run ${'x'.repeat(HTML_LIMITS.string)}`, curl: [], credential: '' } } })]));
    expect(long).not.toContain('class="copy"');
  });

  it('a collapsed problem row shows the first line of its message as text (its title moves inside); a pass shows its title', () => {
    const html = htmlReport(report([hostileFailure(), result({ id: 'messages.path.preserved', title: 'the path is kept' })]));
    expect(html).toContain('<span class="fmsg">the error response is an HTML page: &lt;script&gt;window.__pwned=1;alert(1)&lt;/script&gt;…</span>');
    expect(html).toContain('<p class="desc">title of messages.response.json</p>');
    expect(html).toMatch(/<span class="cid">messages.path.preserved<\/span><span class="title">the path is kept<\/span>/);
    expect(html).toContain('<input type="search" id="q" name="q"');
  });
});

describe('size', () => {
  it('stays within 2 MB when every check failed with huge evidence, cutting with a note; every check keeps its row', () => {
    const huge = 'x'.repeat(1_000_000);
    const other = 'y'.repeat(1_000_000);
    const diffs = Array.from({ length: 2000 }, (_, i) => ({ path: `/a/${i}`, kind: 'changed' as const, expected: huge, actual: other }));
    const results = Array.from({ length: 300 }, (_, i) => result({ id: `big.check-${i}`, outcome: 'fail', message: `failure ${i}`, actual: huge, evidence: { client: { status: 200, body: huge, headers: [['a', huge]] }, upstream: { body: huge }, diffs, blob: Array.from({ length: 50 }, () => huge) } }));
    const html = htmlReport(report(results));
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(HTML_LIMITS.maxBytes);
    expect(html.match(/<details class="check"/g)).toHaveLength(300);
    for (const i of [0, 150, 299]) expect(html).toContain(`failure ${i}`);
    expect(html).toContain('more characters cut (the whole text is in report.json)');
    expect(html).toContain('left out to keep this file small');
  });
});

// ---------------------------------------------------------------------------------------------
// A real run, and the page in a real browser.

const SECRET = 'sk-gwc-SECRET-html-77';

/** The relative luminance of a CSS rgb() colour, and the contrast ratio of two (WCAG 2). */
function luminance(rgb: string): number {
  const [r, g, b] = rgb.match(/[\d.]+/g)!.slice(0, 3).map((x) => {
    const c = Number(x) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** The real report of the run with one failure replaced by a hostile gateway answer, written beside it as `name`. */
function hostileVariant(dir: string, name: string) {
  const real = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as RunReport;
  const results = [hostileFailure(), ...real.results.filter((r) => r.id !== 'messages.response.json')];
  const file = join(dir, name);
  writeFileSync(file, htmlReport({ ...real, results, summary: summarize(results), exitCode: exitCodeOf(results, false) }));
  return { results, url: pathToFileURL(file).href };
}

describe('a default run with a fault (the demo with buffer-stream)', () => {
  let dir = '';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gwc-html-'));
    // The idle probe left out (NO_IDLE_PROBE): this is about the page, not idle streams.
    const r = await cliInProcess(['demo', '--fault', 'buffer-stream', '--out', dir, '--token', SECRET, ...NO_IDLE_PROBE], { timeoutMs: 90_000 });
    expect(r.code, r.stdout + r.stderr).toBe(1);
  }, 100_000);

  it('writes reports/report.html beside report.json: under 2 MB, every check, no credential', () => {
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    const json = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as RunReport;
    expect(statSync(join(dir, 'report.html')).size).toBeLessThanOrEqual(HTML_LIMITS.maxBytes);
    expect(html).not.toContain('SECRET');
    for (const r of json.results) expect(html).toContain(`<details class="check" id="${r.id}" data-outcome="${r.outcome}"`);
    expect(json.results.find((r) => r.id === 'streaming.delivery.incremental')!.outcome).toBe('fail');
    expect(html).toMatch(/<figure class="chart"><svg/);
  });

  it.skipIf(!hasChromium && !requireChromium)(
    'in chromium from file://: scripts of the gateway never run, filters and deep links work, no console error, no request but the page',
    async () => {
      // The real report, plus a failure whose evidence is a hostile gateway answer.
      const { results, url } = hostileVariant(dir, 'hostile.html');

      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
        const { requests, errors, dialogs } = watchPage(page);

        // A deep link opens its check (and only it).
        await page.goto(`${url}#streaming.delivery.incremental`, { waitUntil: 'load' });
        const open = await page.evaluate(() => Array.from(document.querySelectorAll('details.check')).filter((d) => (d as HTMLDetailsElement).open).map((d) => d.id));
        expect(open).toEqual(['streaming.delivery.incremental']);
        expect(await page.locator('[id="streaming.delivery.incremental"] svg circle.sent').count()).toBeGreaterThan(5);
        const shots = process.env.GWC_HTML_SCREENSHOT_DIR;
        const stream = await page.screenshot({ path: join(dir, 'stream-failure.png') });
        expect(stream.subarray(1, 4).toString()).toBe('PNG');

        // Expanding the hostile failure shows its text and runs none of it.
        const hostile = page.locator('[id="messages.response.json"]');
        await hostile.locator(':scope > summary').click();
        expect(await hostile.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
        await hostile.scrollIntoViewIfNeeded();
        const shown = await hostile.locator('.body').innerText();
        expect(shown).toContain('<script>window.__pwned=1;alert(1)</script>');
        expect(shown).toContain('<a href="javascript:alert(3)">click</a>');
        const dom = await page.evaluate(() => ({
          pwned: (window as unknown as { __pwned?: number }).__pwned ?? null,
          scripts: document.scripts.length,
          active: document.querySelectorAll('img, iframe, object, embed, textarea, form, base, link, meta[http-equiv="refresh"]').length,
          handlers: Array.from(document.querySelectorAll('*')).flatMap((e) => Array.from(e.attributes).filter((a) => /^on/i.test(a.name)).map((a) => `${e.tagName}.${a.name}`)),
          links: Array.from(document.querySelectorAll('[href], [src], [xlink\\:href]')).map((e) => e.getAttribute('href') ?? e.getAttribute('src') ?? ''),
        }));
        expect(dom).toMatchObject({ pwned: null, scripts: 1, active: 0, handlers: [] });
        for (const l of dom.links) expect(l).toMatch(/^#/);
        await page.screenshot({ path: join(dir, 'hostile-failure.png') });

        // Filters: hide passes, then show problems only / all.
        const visible = () => page.locator('details.check:visible').count();
        const total = results.length;
        const passes = results.filter((r) => r.outcome === 'pass').length;
        expect(await visible()).toBe(total);
        await page.locator('#filters input[name="outcome"][value="pass"]').uncheck();
        expect(await visible()).toBe(total - passes);
        expect(await page.locator('#shown').innerText()).toBe(`${total - passes} of ${total} checks shown`);
        await page.locator('#filters input[name="area"][value="streaming"]').uncheck();
        expect(await visible()).toBe(results.filter((r) => r.outcome !== 'pass' && r.area !== 'streaming').length);
        await page.locator('#filters button[data-preset="all"]').click();
        expect(await visible()).toBe(total);
        await page.locator('#filters button[data-preset="problems"]').click();
        expect(await visible()).toBe(results.filter((r) => r.outcome !== 'pass' && r.outcome !== 'skip').length);

        expect(dialogs).toEqual([]);
        expect(errors).toEqual([]);
        expect(requests).toEqual([url]);
        if (shots) {
          mkdirSync(shots, { recursive: true });
          for (const f of ['stream-failure.png', 'hostile-failure.png']) copyFileSync(join(dir, f), join(shots, f));
        }
      } finally {
        await browser.close();
      }
    },
    90_000,
  );

  it.skipIf(!hasChromium && !requireChromium)(
    'in chromium, triage: the message in the collapsed row, search, the state in the address (reload, back), copy buttons, dark mode',
    async () => {
      const { results, url } = hostileVariant(dir, 'triage.html');
      const browser = await launchChromium();
      try {
        const context = await browser.newContext({ viewport: { width: 1280, height: 1000 }, permissions: ['clipboard-read', 'clipboard-write'] });
        const page = await context.newPage();
        const { requests, errors, dialogs } = watchPage(page, context);
        await page.goto(url, { waitUntil: 'load' });
        const visibleIds = () => page.evaluate(() => Array.from(document.querySelectorAll('details.check')).filter((d) => !(d as HTMLElement).hidden).map((d) => d.id));

        // A collapsed failing row says what went wrong (the message's first line), not the title;
        // the hostile message shows as text there too.
        const stream = results.find((r) => r.id === 'streaming.delivery.incremental')!;
        const row = page.locator('[id="streaming.delivery.incremental"]');
        expect(await row.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
        const summary = await row.locator(':scope > summary').innerText();
        expect(summary).toContain(stream.message.split('\n')[0].slice(0, 80));
        expect(summary).not.toContain(stream.title);
        expect(await row.locator(':scope > summary .fmsg').isVisible()).toBe(true);
        expect(await page.locator('[id="messages.response.json"] > summary .fmsg').innerText()).toContain('the error response is an HTML page: <script>window.__pwned=1;alert(1)</script>…');
        const pass = results.find((r) => r.outcome === 'pass')!;
        expect(await page.locator(`[id="${pass.id}"] > summary`).innerText()).toContain(pass.title);

        // Search: by requirement, by message text, by id; every other row hidden.
        const search = page.locator('#q');
        const matching = (q: string) => results.filter((r) => [r.id, ...r.requirements, r.title, r.message].join(' ').toLowerCase().includes(q.toLowerCase())).map((r) => r.id);
        for (const q of ['SSE-INC-1', 'pwned', 'chat.stream.incremental']) {
          await search.fill(q);
          expect((await visibleIds()).sort(), q).toEqual(matching(q).sort());
          expect(matching(q).length, q).toBeGreaterThan(0);
          expect(matching(q).length, q).toBeLessThan(results.length);
        }
        expect(await page.locator('#shown').innerText()).toBe(`1 of ${results.length} checks shown`);

        // The address carries the search and the filters; a reload restores both.
        await search.fill('stream');
        await page.locator('#filters input[name="outcome"][value="pass"]').uncheck();
        const state = new URL(page.url()).searchParams;
        expect(state.get('q')).toBe('stream');
        expect(state.get('outcome')!.split(',')).not.toContain('pass');
        expect(state.get('outcome')!.split(',')).toContain('fail');
        const filtered = await visibleIds();
        expect(filtered.sort()).toEqual(results.filter((r) => r.outcome !== 'pass' && matching('stream').includes(r.id)).map((r) => r.id).sort());
        await page.reload({ waitUntil: 'load' });
        expect(await search.inputValue()).toBe('stream');
        expect(await page.locator('#filters input[name="outcome"][value="pass"]').isChecked()).toBe(false);
        expect((await visibleIds()).sort()).toEqual(filtered.sort());
        // Back undoes the filter change, then the search (one run of typing, one entry); forward redoes them.
        await page.goBack();
        await expect.poll(() => page.locator('#filters input[name="outcome"][value="pass"]').isChecked()).toBe(true);
        expect(await search.inputValue()).toBe('stream');
        expect((await visibleIds()).sort()).toEqual(matching('stream').sort());
        await page.goBack();
        await expect.poll(() => search.inputValue()).toBe('');
        expect(await visibleIds()).toHaveLength(results.length);
        await page.goForward();
        await page.goForward();
        await expect.poll(() => page.locator('#filters input[name="outcome"][value="pass"]').isChecked()).toBe(false);
        expect(await search.inputValue()).toBe('stream');

        // A deep link opens and scrolls to its check even when the state in the address hides it.
        await page.goto(`${url}?q=nothing-matches-this&outcome=pass#streaming.delivery.incremental`, { waitUntil: 'load' });
        expect(await visibleIds()).toEqual(['streaming.delivery.incremental']);
        expect(await row.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
        expect(await row.evaluate((d) => Math.abs(d.getBoundingClientRect().top))).toBeLessThan(5);

        // A copy button puts the replay command on the clipboard (the Clipboard API).
        const command = (stream.evidence.replay as { command: string }).command;
        expect(command).toContain('--seed');
        const copyButton = row.locator('.cmd', { hasText: '--only streaming.delivery.incremental' }).locator('button.copy');
        await copyButton.click();
        await expect.poll(() => copyButton.innerText()).toBe('copied');
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);

        // Where the Clipboard API is missing, the selected-textarea fallback copies it.
        const bare = await context.newPage();
        await bare.addInitScript(() => Object.defineProperty(navigator, 'clipboard', { value: undefined }));
        await bare.goto(`${url}#chat.stream.incremental`, { waitUntil: 'load' });
        await page.evaluate(() => navigator.clipboard.writeText('before'));
        const chat = results.find((r) => r.id === 'chat.stream.incremental')!;
        const bareButton = bare.locator('[id="chat.stream.incremental"] button.copy').first();
        await bareButton.click();
        await expect.poll(() => bareButton.innerText()).toBe('copied');
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe((chat.evidence.replay as { command: string }).command);
        expect(await bare.evaluate(() => document.querySelectorAll('textarea').length)).toBe(0);
        await bare.close();

        // Dark mode follows the reader's system: dark background, light text, readable contrast.
        const colours = () =>
          page.evaluate(() => {
            const c = (e: Element, p: 'color' | 'backgroundColor') => getComputedStyle(e)[p];
            const badge = document.querySelector('[id="streaming.delivery.incremental"] .badge')!;
            return { bg: c(document.body, 'backgroundColor'), fg: c(document.body, 'color'), muted: c(document.querySelector('.meta')!, 'color'), card: c(document.querySelector('details.check')!, 'backgroundColor'), badge: c(badge, 'color'), badgeBg: c(badge, 'backgroundColor') };
          });
        const light = await colours();
        await page.emulateMedia({ colorScheme: 'dark' });
        const dark = await colours();
        expect(light.bg).toBe('rgb(255, 255, 255)');
        expect(luminance(dark.bg)).toBeLessThan(0.05);
        expect(luminance(dark.card)).toBeLessThan(0.05);
        expect(luminance(dark.fg)).toBeGreaterThan(0.6);
        for (const c of [light, dark]) {
          expect(contrast(c.fg, c.bg)).toBeGreaterThan(7);
          expect(contrast(c.muted, c.bg)).toBeGreaterThan(4.5);
          expect(contrast(c.badge, c.badgeBg)).toBeGreaterThan(4.5);
        }

        expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned ?? null)).toBe(null);
        expect(dialogs).toEqual([]);
        expect(errors).toEqual([]);
        // Nothing was requested but the page itself (with its address state).
        expect(requests.length).toBeGreaterThan(0);
        for (const r of requests) expect(r.split(/[?#]/)[0]).toBe(url);
      } finally {
        await browser.close();
      }
    },
    90_000,
  );
});
