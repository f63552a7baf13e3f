// The capability matrix (CAP-1): the reference gateway carries every feature (every cell
// passes); a fault that strips images or thinking signatures gives those cells "fail" with the
// evidence of what was lost (the server tools' streams with the block index no start opened,
// deferred tools dropped); a gateway that refuses images with a JSON 400 gives "not offered".
// Required features (--require-capability) make their cells MUST and a JUnit testcase each; the
// matrix runs only when asked for, and shows in every reporter and in certify's report.
import { describe, expect, it } from 'vitest';
import { CAPABILITY_AREA, cellsOf, type CapabilityCell } from '../../../src/core/capabilities.js';
import { resolveConfig } from '../../../src/config/config.js';
import { DEFAULT_MODEL, FEATURES_OF, PROTOCOLS } from '../../../src/protocols/index.js';
import { consoleSummary } from '../../../src/reporters/console.js';
import { htmlReport } from '../../../src/reporters/html/page.js';
import { junitXml } from '../../../src/reporters/junit.js';
import { conformanceReport } from '../../../src/report/certify/certify.js';
import { selectChecks } from '../../../src/runner/registry.js';
import { CHECKS } from '../../../suites/index.js';
import { demoRun } from '../../helpers/demo.js';

const MATRIX = { capabilities: true, only: [CAPABILITY_AREA] };
// The per-protocol expectations come from the protocols' records: a protocol offering features has
// one capability check (capabilities.<name>) probing each of them.
const OFFERING = PROTOCOLS.filter((p) => FEATURES_OF[p].length);
const MATRIX_IDS = OFFERING.map((p) => `capabilities.${p}`).sort();
const WITH_IMAGES = OFFERING.filter((p) => FEATURES_OF[p].includes('images'));
const sortedIds = (results: Array<{ id: string }>) => results.map((x) => x.id).sort();
const bad = (cells: CapabilityCell[]) => cells.filter((c) => c.state !== 'pass').map((c) => `${c.protocol} ${c.feature} ${c.mode} ${c.state}`).sort();

describe('the capability matrix', () => {
  it('runs only when asked for: the default selection has no capability check', () => {
    const ids = (flags: Parameters<typeof resolveConfig>[0]) => selectChecks(CHECKS, resolveConfig({ seed: '1', ...flags }, {}, {})).map((c) => c.id).filter((id) => id.startsWith('capabilities.'));
    expect(ids({})).toEqual([]);
    expect([...ids({ capabilities: true })].sort()).toEqual(MATRIX_IDS);
    expect([...ids({ requireCapability: ['images'] })].sort()).toEqual(MATRIX_IDS);
  });

  it('the reference gateway passes every cell of every protocol and route, JSON and streamed', { timeout: 60_000 }, async () => {
    const r = await demoRun(undefined, { ...MATRIX, modelRoutes: ['claude-opus-4-1=claude-opus-4-1-20250805'] });
    const cells = cellsOf(r.results);
    expect(sortedIds(r.results)).toEqual(MATRIX_IDS);
    expect(r.results.filter((x) => x.outcome !== 'pass')).toEqual([]);
    // Each protocol's features (its record), two routes each, JSON and streamed.
    expect(OFFERING.reduce((n, p) => n + FEATURES_OF[p].length, 0)).toBeGreaterThan(0);
    expect(cells).toHaveLength(OFFERING.reduce((n, p) => n + FEATURES_OF[p].length, 0) * 2 * 2);
    expect(new Set(cells.map((c) => c.route))).toEqual(new Set([...OFFERING.map((p) => DEFAULT_MODEL[p]), 'claude-opus-4-1']));
    expect(bad(cells)).toEqual([]);
  });

  it('a gateway that strips images fails the images cells of every protocol, naming the lost block', { timeout: 60_000 }, async () => {
    const r = await demoRun('strip-images', MATRIX);
    const cells = cellsOf(r.results);
    expect(WITH_IMAGES.length).toBeGreaterThan(1);
    expect(bad(cells)).toEqual(WITH_IMAGES.flatMap((p) => [`${p} images json fail`, `${p} images stream fail`]).sort());
    expect(cells.find((c) => c.protocol === 'messages' && c.feature === 'images')!.evidence).toEqual(['request /messages/0/content/1: missing at the upstream']);
    expect(r.results.find((x) => x.id === 'capabilities.messages')!.outcome).toBe('info');
    expect(r.exitCode).toBe(0);
  });

  it('a gateway that strips thinking signatures fails the thinking cells, JSON and streamed', { timeout: 60_000 }, async () => {
    const cells = cellsOf((await demoRun('strip-thinking-signatures', MATRIX)).results);
    expect(bad(cells)).toEqual(['messages thinking json fail', 'messages thinking stream fail', 'vertex thinking stream fail']);
    const [json, stream] = ['json', 'stream'].map((m) => cells.find((c) => c.feature === 'thinking' && c.mode === m)!.evidence.join('\n'));
    expect(json).toMatch(/\/content\/0\/signature: missing/);
    expect(stream).toMatch(/signature_delta/);
  });

  it('a gateway that drops the starts of server_tool_use blocks fails the server tools\' stream cells, naming the deltas of blocks no start opened (CAP-2)', { timeout: 60_000 }, async () => {
    const cells = cellsOf((await demoRun('drop-server-tool-starts', MATRIX)).results);
    const withServerTools = OFFERING.filter((p) => FEATURES_OF[p].includes('server-tools'));
    expect(withServerTools.length).toBeGreaterThan(0);
    expect(bad(cells)).toEqual(withServerTools.flatMap((p) => ['web-search', 'server-tools', 'tool-search'].map((f) => `${p} ${f} stream fail`)).sort());
    const evidence = cells.find((c) => c.protocol === 'messages' && c.feature === 'server-tools' && c.mode === 'stream')!.evidence;
    expect(evidence).toContain('answer content_block_delta at index 0: no content_block_start opened that block');
  });

  it('a gateway that drops the deferred tools a tool_choice names fails the tool-search cells, JSON and streamed (CAP-3)', { timeout: 60_000 }, async () => {
    const cells = cellsOf((await demoRun('drop-deferred-tools', MATRIX)).results);
    const withSearch = OFFERING.filter((p) => FEATURES_OF[p].includes('tool-search'));
    expect(bad(cells)).toEqual(withSearch.flatMap((p) => [`${p} tool-search json fail`, `${p} tool-search stream fail`]).sort());
    expect(cells.find((c) => c.protocol === 'messages' && c.feature === 'tool-search' && c.mode === 'json')!.evidence.join('\n')).toMatch(/request \/tools/);
  });

  it('a gateway that refuses images with a JSON 400 has them "not offered"; required, they fail the run in every reporter', { timeout: 60_000 }, async () => {
    const r = await demoRun('refuse-images', { requireCapability: ['images'], only: [CAPABILITY_AREA] });
    const cells = cellsOf(r.results);
    expect(bad(cells)).toEqual(['messages images json not-offered', 'messages images stream not-offered']);
    expect(cells.find((c) => c.state === 'not-offered')!.evidence[0]).toMatch(/status 400.*not supported/);
    const messages = r.results.find((x) => x.id === 'capabilities.messages')!;
    expect([messages.level, messages.outcome]).toEqual(['MUST', 'fail']);
    // The other protocols that carry images (their records say so): required there too, and passing; a matrix without an image probe (the Responses API's) stays INFO.
    const others = r.results.filter((x) => x.id !== 'capabilities.messages').map((x) => `${x.id} ${x.level} ${x.outcome}`).sort();
    expect(others).toEqual(OFFERING.filter((p) => p !== 'messages').map((p) => `capabilities.${p} ${WITH_IMAGES.includes(p) ? 'MUST' : 'INFO'} pass`).sort());
    expect(others.some((x) => x.includes(' INFO '))).toBe(true);
    expect(r.exitCode).toBe(1);

    const text = consoleSummary(r, []);
    expect(text).toMatch(/Capability matrix/);
    expect(text).toMatch(/messages claude-sonnet-4-5-20250929\s+ok\s+n\/o\*/);
    const xml = junitXml(r);
    expect(xml.match(/<testcase classname="capabilities" name="capability images[^"]*"/g)).toHaveLength(WITH_IMAGES.length * 2);
    expect(xml).toMatch(/<failure message="images: not-offered" type="not-offered">/);
    const html = htmlReport(r);
    expect(html).toMatch(/<h2>Capability matrix<\/h2>/);
    expect(html).toMatch(/class="cap o-skip" title="json: not-offered/);
    const doc = conformanceReport({ report: r, implementation: { name: 'reference', version: '1' }, settings: {}, digest: 'a'.repeat(64), transcript: [], argv: [] });
    expect(doc.capabilities?.filter((c) => c.state === 'not-offered')).toHaveLength(2);
  });
});
