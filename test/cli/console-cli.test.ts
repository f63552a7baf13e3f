// The console as a user of the CLI sees it (called in this process): the result on stderr in one line with file
// reporters only; colour when forced and never with --no-color; each finding with how to
// reproduce and fix it; in GitHub Actions annotations and a job summary besides.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess } from '../helpers/in-process.js';
import { fixLink } from '../../src/core/links.js';

const FAULTY = ['demo', '--fault', 'drop-anthropic-beta', '--only', 'messages.headers.beta', '--seed', '5'];

describe('console (CLI)', () => {
  it('with file reporters only, one line on stderr says the result and where the report is', async () => {
    const out = mkdtempSync(join(tmpdir(), 'gwc-console-'));
    const r = await cliInProcess([...FAULTY, '--reporter', 'json', '--out', out], {});
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toBe(`gw-conformance: 1 fail in ${/in (\d+\.\d) s/.exec(r.stderr)?.[1]} s: FAILED (a MUST check did not pass); report: ${join(out, 'report.json')}\n`);
    expect(r.stdout).not.toMatch(/FAIL|Findings/);
  });

  it('colours the marks when FORCE_COLOR says so, never with --no-color; a finding says how to reproduce and fix it', async () => {
    const out = mkdtempSync(join(tmpdir(), 'gwc-console-'));
    const coloured = await cliInProcess([...FAULTY, '--reporter', 'console', '--reporter', 'html', '--out', out], { env: { NO_COLOR: '', FORCE_COLOR: '1' } });
    expect(coloured.stdout).toMatch(/^\x1b\[1m\x1b\[31mFAIL\x1b\[39m\x1b\[22m +messages\.headers\.beta /m);
    const plain = await cliInProcess([...FAULTY, '--reporter', 'console', '--reporter', 'html', '--out', out, '--no-color'], { env: { NO_COLOR: '', FORCE_COLOR: '1' } });
    expect(plain.stdout).not.toContain('\x1b');
    expect(plain.stdout).toContain(`    reproduce: npx gw-conformance demo --fault drop-anthropic-beta --reporter console --reporter html --no-color --only messages.headers.beta --seed 5`);
    expect(plain.stdout).toContain(`    details:   ${join(out, 'report.html')}#messages.headers.beta`);
    expect(plain.stdout).toContain(`    fix:       ${fixLink('messages.headers.beta')}`);
    expect(plain.stderr).toBe('');
  });

  it('in GitHub Actions: an annotation per failure and the job summary, beside the chosen reporters', async () => {
    const out = mkdtempSync(join(tmpdir(), 'gwc-console-'));
    const summary = join(out, 'summary.md');
    const r = await cliInProcess([...FAULTY, '--reporter', 'json', '--out', out], { env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^::error title=messages\.headers\.beta \[MUST MSG-HDR-2\]::anthropic-beta lost /m);
    expect(readFileSync(summary, 'utf8')).toMatch(/\n\| FAIL \| messages\.headers\.beta \| MUST MSG-HDR-2 \| anthropic-beta lost .* \| https:\/\/\S+\/blob\/v\d+\.\d+\.\d+\/docs\/checks\.md#messages\.headers\.beta \|\n/);
  });
});
