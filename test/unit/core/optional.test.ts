// The optional packages (src/core/optional.ts): package.json declares them once, as optional peer
// dependencies tested at the devDependencies' versions; a default `demo` loads none of them; a
// feature used without its packages ends with one line saying what to install (exit 2). The CLI
// runs with module hooks (test/helpers/optional-hooks.mjs) that make chosen packages resolve as
// not installed and log every module resolved.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, ROOT } from '../../helpers/cli.js';
import { UNTIMED } from '../../helpers/untimed.js';
import { importOptional, OPTIONAL_FEATURES, requireOptional } from '../../../src/core/optional.js';
import { HarnessError } from '../../../src/core/errors.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string | { optional?: boolean }>>;
const OPTIONAL = [...new Set(Object.values(OPTIONAL_FEATURES).flatMap((f) => f.packages))];
const hooks = pathToFileURL(join(ROOT, 'test', 'helpers', 'optional-hooks.mjs')).href;
const NODE_OPTIONS = `--import=data:text/javascript,import{register}from'node:module';register('${hooks}')`;
const work = mkdtempSync(join(tmpdir(), 'gwc-optional-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const hiding = (packages: readonly string[], env: Record<string, string> = {}) => ({ NODE_OPTIONS, GWC_HIDE_PACKAGES: packages.join(','), ...env });

describe('package.json', () => {
  it('declares each optional package once: an optional peer at the version the tests install, never a dependency', () => {
    expect(Object.keys(pkg.peerDependencies).sort()).toEqual([...OPTIONAL].sort());
    for (const name of OPTIONAL) {
      expect(pkg.peerDependenciesMeta[name], name).toEqual({ optional: true });
      expect(pkg.devDependencies[name], name).toBe(pkg.peerDependencies[name]);
      expect(pkg.dependencies[name], name).toBeUndefined();
    }
  });
});

describe('the optional packages', () => {
  it('a default demo passes with none of them installed and resolves none of them, nor the apps modules', async () => {
    const log = join(work, 'resolved.log');
    const r = await cli(['demo', '--seed', '1', '--out', join(work, 'demo'), ...UNTIMED], { env: hiding(OPTIONAL, { GWC_RESOLVED_LOG: log }), timeoutMs: 120_000 });
    expect(r.code, r.stdout.slice(-2000) + r.stderr).toBe(0);
    const resolved = readFileSync(log, 'utf8').split('\n');
    // The log holds what was loaded: the harness's own modules and its dependencies.
    expect(resolved.some((u) => u.includes('/node_modules/commander/'))).toBe(true);
    const optional = new RegExp(`/node_modules/(${OPTIONAL.join('|')})/|/(mocks/(oidc|otlp|apps)|reference/apps/gateway)`);
    expect(resolved.filter((u) => optional.test(u))).toEqual([]);
  }, 150_000);

  it('demo --profile apps without jose: one line naming it and the install command, exit 2, before any check', async () => {
    const r = await cli(['demo', '--profile', 'apps'], { env: hiding(['jose']) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([`gw-conformance: error GWC-MISSING-PACKAGE: the apps profile (--profile apps, apps-config, reference --apps) needs the optional package jose, not installed: npm install jose@${pkg.peerDependencies.jose}`]);
  });

  it('run --profile apps without the IdP and the OpenTelemetry packages names every one missing', async () => {
    const missing = ['oauth2-mock-server', '@opentelemetry/api', '@opentelemetry/resources'];
    const r = await cli(['run', '--profile', 'apps', '--gateway-cmd', 'true'], { env: hiding(missing) });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`needs the optional packages ${missing.join(', ')}, not installed: npm install ${missing.map((n) => `${n}@${pkg.peerDependencies[n]}`).join(' ')}`);
  });

  it('--gateway-image without testcontainers: one line, exit 2, nothing started', async () => {
    const r = await cli(['run', '--gateway-image', 'example/gateway:1', '--upstream-listen', '127.0.0.1:0'], { env: hiding(['testcontainers']) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([`gw-conformance: error GWC-MISSING-PACKAGE: --gateway-image needs the optional package testcontainers, not installed: npm install testcontainers@${pkg.peerDependencies.testcontainers}`]);
  });

  it('the client profile without an SDK it drives: one line naming it, exit 2', async () => {
    const r = await cli(['demo', '--profile', 'client', '--clients', 'openai', '--reporter', 'json', '--out', join(work, 'no-openai')], { env: hiding(['openai']) });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([`gw-conformance: error GWC-BAD-FLAG: --clients openai: the client profile with --clients openai, openai-responses or openai-realtime needs the optional package openai, not installed: npm install openai@${pkg.peerDependencies.openai}`]);
  });

  it('a package that passes the check but fails to load still gets the one line; other load errors pass through', async () => {
    expect(() => requireOptional('postgres')).not.toThrow();
    const notFound = Object.assign(new Error("Cannot find package 'pg' imported from /x/store.js"), { code: 'ERR_MODULE_NOT_FOUND' });
    const err = await importOptional('postgres', () => Promise.reject(notFound)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HarnessError);
    expect((err as HarnessError).message).toBe(`an apps store on PostgreSQL (--apps-postgres-url, store.postgres_url) needs the optional package pg, not installed: npm install pg@${pkg.peerDependencies.pg}`);
    const other = new SyntaxError('broken module');
    await expect(importOptional('postgres', () => Promise.reject(other))).rejects.toBe(other);
  });
});
