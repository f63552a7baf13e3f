// Property-based: generated valid configurations (both dialects) lint clean, and one mutation
// per rule is caught by that rule, at the line of the key it is about.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { lintText } from '../../../src/lint/lint.js';
import type { Finding } from '../../../src/lint/rules.js';
import { host, label, literal, outlineConfig, PUBLIC_MUTATIONS, publicConfig, type Obj } from '../../helpers/apps-config-gen.js';

const RUNS = { numRuns: 60 };

const lint = (cfg: Obj) => {
  const text = stringify(cfg);
  return { text, findings: lintText('gen.yaml', text).findings };
};

/** The finding of `rule` exists, and its line holds the last key of `path` (or the list item). */
function caught(cfg: Obj, rule: string, path: string) {
  const { text, findings } = lint(cfg);
  const f = findings.find((x: Finding) => x.rule === rule && x.path === path);
  expect(f, `${rule} at ${path} in\n${text}\nfindings: ${JSON.stringify(findings)}`).toBeDefined();
  // The mutation breaks this rule only.
  expect(findings.filter((x) => x.rule !== rule), text).toEqual([]);
  const lastKey = path.replace(/\[\d+\]$/, '').split('.').pop()!;
  const line = text.split('\n')[f!.line - 1];
  if (!/\[\d+\]$/.test(path)) expect(line.slice(f!.column - 1).startsWith(lastKey), `${line} @${f!.column}`).toBe(true);
}

const clone = (o: Obj): Obj => structuredClone(o);

describe('lint-config, property-based', () => {
  it('generated valid claude-apps-gateway configurations lint clean', () => {
    fc.assert(fc.property(publicConfig(), (cfg) => {
      expect(lint(cfg).findings).toEqual([]);
    }), RUNS);
  });

  it('generated valid outline configurations lint clean', () => {
    fc.assert(fc.property(outlineConfig, (cfg) => {
      expect(lint(cfg).findings).toEqual([]);
    }), RUNS);
  });


  for (const { rule, mutation } of PUBLIC_MUTATIONS)
    it(`claude-apps-gateway: a ${rule} mutation of a valid configuration is caught`, () => {
      fc.assert(
        fc.property(publicConfig(), mutation, (cfg, mutate) => {
          const c = clone(cfg);
          caught(c, rule, mutate(c));
        }),
        { numRuns: 25 },
      );
    });

  const outlineMutations: Array<[string, fc.Arbitrary<(c: Obj) => string>]> = [
    ['CFG-SCHEMA-1', fc.constantFrom('issuer', 'issuer_uri', 'issuerurl').map((k) => (c: Obj) => ((c.auth.oidc[k] = c.auth.oidc.issuer_url), delete c.auth.oidc.issuer_url, `auth.oidc.${k}`))],
    ['CFG-SECRET-1', literal.map((s) => (c: Obj) => ((c.upstreams[0].api_key = s), 'upstreams[0].api_key'))],
    ['CFG-REF-1', label.map((n) => (c: Obj) => ((c.routing.default_upstream = `${n}-missing`), 'routing.default_upstream'))],
    ['CFG-URL-1', host.map((h) => (c: Obj) => ((c.upstreams[0].type = 'messages'), (c.upstreams[0].base_url = `https://${h}/v1/`), 'upstreams[0].base_url'))],
    ['CFG-URL-2', fc.constantFrom('http://localhost', 'https://127.0.0.2:8443', 'http://apps.corp.example').map((u) => (c: Obj) => ((c.server.public_url = u), 'server.public_url'))],
    ['CFG-SPEND-1', fc.double({ min: -1e6, max: -0.01, noNaN: true }).map((v) => (c: Obj) => ((c.spend_limits.defaults.team_monthly_usd = v), 'spend_limits.defaults.team_monthly_usd'))],
  ];
  for (const [rule, mutation] of outlineMutations)
    it(`outline: a ${rule} mutation of a valid configuration is caught`, () => {
      fc.assert(
        fc.property(outlineConfig, mutation, (cfg, mutate) => {
          const c = clone(cfg);
          caught(c, rule, mutate(c));
        }),
        { numRuns: 25 },
      );
    });
});
