import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigFile, resolveConfig } from '../../../src/config/config.js';
import { maskHeaders, scrubSecrets } from '../../../src/core/mask.js';

const file = (text: string) => {
  const f = join(mkdtempSync(join(tmpdir(), 'gwc-')), 'gwc.yaml');
  writeFileSync(f, text);
  return f;
};

describe('gwc.yaml', () => {
  it('accepts the flags as keys', () => {
    const c = loadConfigFile(file('target: http://127.0.0.1:8080\nupstream-listen: 127.0.0.1:19090\nonly: [messages.path.preserved]\nseed: 7\nmodel-routes: {a: b}\n'), true);
    const r = resolveConfig({}, c, {});
    expect(r).toMatchObject({ target: 'http://127.0.0.1:8080', upstreamListen: '127.0.0.1:19090', only: ['messages.path.preserved'], seed: 7, modelRoutes: { a: 'b' } });
  });
  it('names an unknown key, a wrong type and a bad enum value', () => {
    expect(() => loadConfigFile(file('targte: x\n'), true)).toThrow(/unknown key "targte"/);
    expect(() => loadConfigFile(file('seed: abc\n'), true)).toThrow(/key "seed" must be integer/);
    expect(() => loadConfigFile(file('profile: fast\n'), true)).toThrow(/key "profile" must be equal to one of the allowed values \(default, slow, service, apps, client, load\)/);
    expect(() => loadConfigFile(file('model-routes: {a: 1}\n'), true)).toThrow(/key "model-routes.a" must be string/);
  });
  it('reports YAML syntax errors and a missing named file', () => {
    expect(() => loadConfigFile(file('a: [1,\n'), true)).toThrow(/not valid YAML/);
    expect(() => loadConfigFile('/nonexistent/gwc.yaml', true)).toThrow(/does not exist/);
    expect(loadConfigFile('/nonexistent/gwc.yaml', false)).toEqual({});
  });
  it('lets flags win over the environment and the file; reads the token from a named variable', () => {
    const c = loadConfigFile(file('token-env: MY_GW_TOKEN\nseed: 3\n'), true);
    expect(resolveConfig({}, c, { MY_GW_TOKEN: 'from-file-env' }).token).toBe('from-file-env');
    expect(resolveConfig({}, c, { GWC_TOKEN: 'env', MY_GW_TOKEN: 'x' }).token).toBe('env');
    expect(resolveConfig({ token: 'flag', seed: '9' }, c, { GWC_TOKEN: 'env' })).toMatchObject({ token: 'flag', seed: 9 });
  });
  it('refuses an empty credential with one line saying how to declare none; none sends none', () => {
    const say = /--no-token \(`token: none` in gwc.yaml\)/;
    expect(() => resolveConfig({ token: '' }, {}, {})).toThrow(/^--token is empty \(an unset variable\?\)/);
    expect(() => resolveConfig({ token: '' }, {}, {})).toThrow(say);
    expect(() => resolveConfig({}, {}, { GWC_TOKEN: '' })).toThrow(/^GWC_TOKEN is set but empty/);
    const named = loadConfigFile(file('token-env: MY_GW_TOKEN\n'), true);
    expect(() => resolveConfig({}, named, {})).toThrow(/^token-env: the variable MY_GW_TOKEN is not set/);
    expect(() => resolveConfig({}, named, { MY_GW_TOKEN: '' })).toThrow(/MY_GW_TOKEN is empty/);
    // --no-token (commander gives false), `token: none` in the file, GWC_TOKEN=none: no credential.
    expect(resolveConfig({ token: false }, {}, {}).token).toBe('');
    expect(resolveConfig({}, loadConfigFile(file('token: none\n'), true), {}).token).toBe('');
    expect(resolveConfig({}, {}, { GWC_TOKEN: 'none' }).token).toBe('');
    expect(resolveConfig({ token: 'flag' }, { token: 'none' }, {}).token).toBe('flag');
    // The file never holds the credential itself.
    expect(() => loadConfigFile(file('token: sk-secret\n'), true)).toThrow(/key "token" must be equal to one of the allowed values \(none\)/);
    // Nothing named: a dummy credential, as before.
    expect(resolveConfig({}, {}, {}).token).toBe('gwc-test-token');
  });
  it('rejects bad flag values with the flag named', () => {
    expect(() => resolveConfig({ seed: 'x' }, {}, {})).toThrow(/--seed/);
    expect(() => resolveConfig({ target: 'ftp://x' }, {}, {})).toThrow(/--target/);
    expect(() => resolveConfig({ reporter: ['pdf'] }, {}, {})).toThrow(/--reporter/);
  });
});

describe('masking', () => {
  it('masks credential headers and scrubs a secret anywhere', () => {
    expect(maskHeaders([['Authorization', 'Bearer sk-123'], ['x-api-key', 'k'], ['accept', 'x']])).toEqual([['Authorization', 'Bearer ***'], ['x-api-key', '***'], ['accept', 'x']]);
    expect(scrubSecrets('{"a":"sk-secret-1","u":"/x?key=abc&b=1"}', ['sk-secret-1'])).toBe('{"a":"***","u":"/x?key=***&b=1"}');
  });
});
