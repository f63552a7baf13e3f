// The real Claude apps gateway as the oracle of lint-config: for every claude-apps-gateway
// fixture, the gateway's verdict (it reaches its database step = valid) equals the one
// recorded beside the fixture, and lint-config agrees with it, except where the fixture
// declares that lint-config is stricter on purpose (`oracle.stricter`: always, or with --strict).
// The gateway runs only inside a loopback-only network namespace (test/helpers/claude-gateway.ts).
// Skipped only when the binary is absent and GWC_REQUIRE_CLAUDE is unset; CI sets it (.ci/run).
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { lintText } from '../../../src/lint/lint.js';
import { PUBLIC_MUTATIONS, publicConfig, type Obj } from '../../helpers/apps-config-gen.js';
import { findClaude, gatewayVerdict } from '../../helpers/claude-gateway.js';

const dir = new URL('../../../fixtures/apps-config/', import.meta.url);
const files = readdirSync(dir).filter((f) => /^(pub-.*|valid-claude-apps-gateway.*)\.yaml$/.test(f)).sort();
const vars: Record<string, string> = Object.fromEntries(Object.entries(JSON.parse(readFileSync(new URL('oracle-env.json', dir), 'utf8')) as Record<string, string>).filter(([k]) => !k.startsWith('/')));
interface Oracle {
  gateway: 'valid' | 'invalid';
  stricter?: { when: 'always' | 'strict'; why: string };
}
const oracleOf = (f: string): Oracle => JSON.parse(readFileSync(new URL(f.replace(/\.yaml$/, '.expected.json'), dir), 'utf8')).oracle;

const bin = findClaude();
const required = process.env.GWC_REQUIRE_CLAUDE === '1';

describe.skipIf(!bin && !required)('lint-config agrees with the real gateway (claude gateway --config)', () => {
  it('the claude binary is installed (GWC_REQUIRE_CLAUDE=1)', () => {
    expect(bin, 'install @anthropic-ai/claude-code-linux-x64@2.1.330 into .cache/claude-code (see .ci/run) or set GWC_CLAUDE_BIN').toBeDefined();
  });

  it('every claude-apps-gateway fixture records the gateway verdict', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
    for (const f of files) expect(['valid', 'invalid'], f).toContain(oracleOf(f)?.gateway);
  });

  for (const f of files) {
    it(`${f}: gateway and lint-config verdicts`, async () => {
      const oracle = oracleOf(f);
      const path = fileURLToPath(new URL(f, dir));
      const gw = await gatewayVerdict(bin!, path, vars);
      expect(gw.verdict, `gateway said:\n${gw.output}`).toBe(oracle.gateway);

      const findings = lintText(f, readFileSync(path, 'utf8')).findings;
      const lintValid = !findings.some((x) => x.severity === 'error');
      const lintValidStrict = findings.length === 0;
      const gwValid = gw.verdict === 'valid';
      // Without --strict: agree unless the fixture says lint-config is stricter always.
      if (oracle.stricter?.when === 'always') {
        expect(gwValid).toBe(true);
        expect(lintValid).toBe(false);
      } else expect(lintValid, `lint-config findings: ${JSON.stringify(findings)}`).toBe(gwValid);
      // With --strict: agree unless the fixture declares any strictness.
      if (oracle.stricter) {
        expect(oracle.stricter.why.length).toBeGreaterThan(20);
        expect(lintValidStrict).toBe(false);
      } else expect(lintValidStrict).toBe(gwValid);
    });
  }

  // Differential: generated configurations (fixed seed, so a failure reproduces) through both.
  const SEED = 20261121;
  const work = mkdtempSync(join(tmpdir(), 'gwc-lint-oracle-'));
  const both = async (name: string, cfg: Obj) => {
    const file = join(work, `${name}.yaml`);
    const text = stringify(cfg);
    writeFileSync(file, text);
    const gw = await gatewayVerdict(bin!, file, vars);
    return { gw, findings: lintText(file, text).findings, text };
  };

  it('generated valid configurations: the gateway accepts them and lint-config finds nothing', async () => {
    const samples = fc.sample(publicConfig(true), { seed: SEED, numRuns: 5 });
    for (const [i, cfg] of samples.entries()) {
      const { gw, findings, text } = await both(`valid-${i}`, cfg);
      expect(gw.verdict, `${text}\ngateway said:\n${gw.output}`).toBe('valid');
      expect(findings, text).toEqual([]);
    }
  });

  for (const m of PUBLIC_MUTATIONS)
    it(`a generated ${m.rule} mutation: the gateway says ${m.gateway}; lint-config agrees${m.stricter ? ` (stricter: ${m.stricter})` : ''}`, async () => {
      const [[cfg, mutate]] = fc.sample(fc.tuple(publicConfig(true), m.mutation), { seed: SEED, numRuns: 1 });
      const c = structuredClone(cfg);
      const path = mutate(c);
      const { gw, findings, text } = await both(`mutation-${m.rule}`, c);
      expect(gw.verdict, `${text}\ngateway said:\n${gw.output}`).toBe(m.gateway);
      expect(findings.some((f) => f.rule === m.rule && f.path === path), JSON.stringify(findings)).toBe(true);
      const lintValid = !findings.some((f) => f.severity === 'error');
      expect(lintValid).toBe(m.stricter === 'always' ? false : m.gateway === 'valid');
      expect(findings.length === 0).toBe(m.stricter ? false : m.gateway === 'valid');
    });
});

