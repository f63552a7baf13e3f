// The generated section of docs/performance.md on the self-tests' costs
// (scripts/self-test-costs.mjs): its format, made from a fixture of .cache/self-tests.json
// (test/fixtures/self-tests/run.json, itself what the reporter's summary makes of its files), the
// cut at the 15 files of most CPU, the replacement between the markers, and the script's exit.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SECTION_END, SECTION_START, parseReport, selfTestSection, withSelfTestSection } from '../../scripts/self-test-costs.mjs';
import { ROOT } from '../helpers/cli.js';
import { selfTestsReport, type FileCost, type FileRecord, type SelfTestsReport } from '../helpers/self-costs.js';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'self-tests', 'run.json');
const fixture = (): SelfTestsReport => parseReport(readFileSync(FIXTURE, 'utf8'));
const SCRIPT = path.join(ROOT, 'scripts', 'self-test-costs.mjs');
const tmp = mkdtempSync(path.join(tmpdir(), 'gwc-self-test-costs-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the fixture', () => {
  it('is what the reporter writes for its files (the totals and order are the summary\'s)', () => {
    const f = fixture();
    const { date, node, vitest, reason, runWallS, mainCpuS } = f;
    const files = [...f.files].sort((a, b) => a.file.localeCompare(b.file));
    expect(selfTestsReport(files, { date, node, vitest, reason, runWallS, mainCpuS })).toEqual(f);
  });
});

describe('selfTestSection', () => {
  it('writes the run, the totals per project and in all, and the files of most CPU', () => {
    expect(selfTestSection(fixture())).toBe([
      SECTION_START,
      'The last measured run: 2026-12-01, Node v20.20.2, vitest 4.1.12, 6 test files (projects untimed, matrix, timing), ended `failed`; 1 of them reported no figures (failed to load, or their worker died).',
      '',
      '| project | files | CPU s | workers s | their children s | file wall s | children |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
      '| untimed | 3 | 39.7 | 2.7 | 37.0 | 86.0 | 31 |',
      '| matrix | 2 | 299.5 | 299.0 | 0.5 | 797.2 | 2 |',
      '| timing | 1 | 81.8 | 20.5 | 61.3 | 120.4 | 48 |',
      '| all | 6 | 421.0 | 322.2 | 98.8 | 1003.6 | 81 |',
      '',
      'The run took 720.5 s of wall time; beside the files, starting the workers took 1.3 s of CPU and vitest\'s main process 31.8 s. 1 child was still running at the end of its file: that CPU is not counted.',
      '',
      'The 5 files of most CPU:',
      '',
      '| file | project | CPU s | workers s | their children s | wall s | children |',
      '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
      '| `test/detection/detection.test.ts` | matrix | 150.8 | 150.3 | 0.5 | 396.2 | 2 |',
      '| `test/detection/detection-2.test.ts` | matrix | 148.8 | 148.8 | - | 401.0 | 0 |',
      '| `test/real/nginx/nginx.test.ts` | timing | 81.8 | 20.5 | 61.3 | 120.4 | 48 |',
      '| `test/cli/cli.test.ts` | untimed | 39.5 | 2.5 | 37.0 | 85.1 | 31 |',
      '| `test/unit/core/mask.test.ts` | untimed | 0.2 | 0.2 | 0.0 | 0.9 | 0 |',
      SECTION_END,
    ].join('\n'));
  });

  it('lists 15 files of a larger run, most CPU first, and says nothing of unmeasured files or running children when there are none', () => {
    const cost = (cpuS: number): FileCost => ({ pid: 1, cpuS, selfCpuS: cpuS, childrenCpuS: 0, wallS: 1, children: 0, childrenRunning: 0, workerStartCpuS: 0 });
    const files: FileRecord[] = Array.from({ length: 20 }, (_, i) => ({ file: `test/f${i}.test.ts`, project: 'untimed', state: 'passed', cost: cost(i) }));
    const section = selfTestSection(selfTestsReport(files, { ...fixture(), reason: 'passed' }));
    const listed = [...section.matchAll(/^\| `(test\/f\d+\.test\.ts)` /gm)].map((m) => m[1]);
    expect(listed).toEqual(Array.from({ length: 15 }, (_, i) => `test/f${19 - i}.test.ts`));
    expect(section).toContain('20 test files (projects untimed), ended `passed`.\n');
    expect(section).toContain('The 15 files of most CPU:');
    expect(section).not.toMatch(/reported no figures|still running/);
    expect(selfTestSection(selfTestsReport(files.slice(0, 1), fixture()))).toContain('1 test file (projects untimed)');
  });
});

describe('withSelfTestSection and parseReport', () => {
  it('replaces what is between the markers and nothing else, the same each time', () => {
    const doc = `# Notes\n\nbefore\n\n${SECTION_START}\nold figures\n${SECTION_END}\n\nafter\n`;
    const section = selfTestSection(fixture());
    const once = withSelfTestSection(doc, section);
    expect(once).toBe(`# Notes\n\nbefore\n\n${section}\n\nafter\n`);
    expect(withSelfTestSection(once, section)).toBe(once);
  });

  it('refuses a document without the markers, and a file that is not a report', () => {
    expect(() => withSelfTestSection('# Notes\n', 'x')).toThrow(/markers/);
    expect(() => withSelfTestSection(`${SECTION_END}\n${SECTION_START}\n`, 'x')).toThrow(/markers/);
    expect(() => parseReport('{"files": []}')).toThrow(/not a report/);
    expect(() => parseReport('not json')).toThrow();
  });

  it('docs/performance.md has the markers, in order, once', () => {
    const doc = readFileSync(path.join(ROOT, 'docs', 'performance.md'), 'utf8');
    expect(doc.split(SECTION_START)).toHaveLength(2);
    expect(doc.split(SECTION_END)).toHaveLength(2);
    expect(doc.indexOf(SECTION_START)).toBeLessThan(doc.indexOf(SECTION_END));
  });
});

describe('node scripts/self-test-costs.mjs', () => {
  it('writes the section into the document from the JSON, and ends in one line and exit 2 without a JSON', () => {
    const doc = path.join(tmp, 'performance.md');
    writeFileSync(doc, `intro\n${SECTION_START}\n${SECTION_END}\nend\n`);
    const ok = spawnSync(process.execPath, [SCRIPT, '--json', FIXTURE, '--doc', doc], { encoding: 'utf8' });
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect(readFileSync(doc, 'utf8')).toBe(`intro\n${selfTestSection(fixture())}\nend\n`);
    const missing = spawnSync(process.execPath, [SCRIPT, '--json', path.join(tmp, 'none.json'), '--doc', doc], { encoding: 'utf8' });
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^self-test-costs: .*none\.json not found/)]);
  });
});
