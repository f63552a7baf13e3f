// The one table of options (src/config/options.ts, with the commands' own flags in
// src/config/commands.ts) is what the CLI, gwc.yaml's schema, the resolved settings, the CLI
// reference (docs/cli.md) and the README all come from.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_SCHEMA, resolveConfig } from '../src/config/config.js';
import { FLAG_OPTIONS, ROWS } from '../src/config/options.js';
import { cliReferenceMarkdown, COMMANDS, optionsOf } from '../src/config/commands.js';
import { COMMAND_NAMES } from '../src/config/options.js';
import { cli, ROOT } from './helpers/cli.js';

describe('the option table', () => {
  it('is docs/cli.md (regenerate with `npm run docs:cli`)', () => {
    expect(readFileSync(join(ROOT, 'docs/cli.md'), 'utf8')).toBe(cliReferenceMarkdown());
  });

  it("is what every command's --help offers, each flag once, and the commands are the table's", async () => {
    const top = await cli(['--help']);
    const listed = [...top.stdout.matchAll(/^\s{2}([a-z-]+)(?: \[options\]| <|\s)/gm)].map((m) => m[1]).filter((c) => c !== 'help');
    expect(listed).toEqual([...COMMAND_NAMES]);
    for (const name of COMMAND_NAMES) {
      const r = await cli([name, '--help']);
      expect(r.code, name).toBe(0);
      expect(r.stdout, name).toContain(COMMANDS[name].description.slice(0, 40));
      // An option's line starts with two spaces; wrapped help lines are indented further.
      const offered = [...r.stdout.matchAll(/^ {2}(--[a-z0-9-]+)/gm)].map((x) => x[1]).filter((f) => f !== '--help');
      expect(offered.sort(), name).toEqual(optionsOf(name).map((o) => `--${o.name}`).sort());
    }
  });

  it('verify takes the same rows as run (one help text each), and shows only the environment variable it reads', () => {
    const run = optionsOf('run');
    const verify = optionsOf('verify');
    expect(verify.map((o) => o.name)).toEqual(['target', 'upstream-listen', 'token', 'gateway-cmd', 'gateway-env']);
    for (const o of verify) expect(o.help, o.name).toBe(run.find((r) => r.name === o.name)?.help);
    expect(verify.filter((o) => o.env).map((o) => o.env)).toEqual(['GWC_TOKEN']);
    expect(verify[0].defaultText).toBe('the recorded target');
  });

  it('is what `run --help` offers, each flag once', async () => {
    const r = await cli(['run', '--help']);
    expect(r.code).toBe(0);
    for (const o of FLAG_OPTIONS) expect(r.stdout.match(new RegExp(`--${o.name}\\b(?!-)`, 'g')), o.name).toHaveLength(1);
    // Nothing offered that the table does not describe (besides commander's own --help).
    const offered = [...r.stdout.matchAll(/^\s+(--[a-z0-9-]+)/gm)].map((x) => x[1]).filter((f) => f !== '--help');
    expect(offered.sort()).toEqual(FLAG_OPTIONS.map((o) => `--${o.name}`).sort());
  });

  it('is the schema of gwc.yaml: every key the file takes, and no other', () => {
    const schema = CONFIG_SCHEMA as { properties: Record<string, unknown>; additionalProperties?: boolean };
    const keys = Object.keys(schema.properties);
    // Named here, not by the table's filter: what a file never holds (the file's own path, the
    // secret, what the file sets per protocol under `protocols:`), what only a file holds, and no
    // key beyond its properties.
    for (const k of ['config', 'token', 'base-path', 'header']) expect(keys, k).not.toContain(k);
    expect(keys).toContain('token-env');
    expect(schema.additionalProperties).toBe(false);
    expect(keys).toContain('sse-burst-window-ms');
    expect(keys).toContain('model-routes');
  });

  it('resolves flag over environment over file over default, with bounds named', () => {
    const file = { runs: 5, 'sse-burst-window-ms': 30, protocols: ['messages'] };
    expect(resolveConfig({}, file, {})).toMatchObject({ runs: 5, sse: { burstWindowMs: 30, maxLagMs: 1000, latP50Ms: 50 }, protocols: ['messages'] });
    expect(resolveConfig({}, file, { GWC_RUNS: '6', GWC_PROTOCOLS: 'chat,messages' })).toMatchObject({ runs: 6, protocols: ['messages', 'chat'] });
    expect(resolveConfig({}, {}, { GWC_SSE_LAT_P50_MS: '80' }).sse).toMatchObject({ latP50Ms: 80, maxLagMs: 1000 });
    expect(resolveConfig({ runs: '7', sseBurstWindowMs: '20', modelRoutes: ['a=b', 'c=d'] }, file, { GWC_RUNS: '6' })).toMatchObject({ runs: 7, sse: { burstWindowMs: 20 }, modelRoutes: { a: 'b', c: 'd' } });
    expect(resolveConfig({ skip: ['x'] }, { skip: ['y'] }, {}).skip).toEqual(['y', 'x']);
    expect(() => resolveConfig({ runs: '0' }, {}, {})).toThrow(/--runs: expected a whole number from 1 to 10000, got "0"/);
    expect(() => resolveConfig({}, {}, { GWC_CONCURRENCY: '99' })).toThrow(/GWC_CONCURRENCY: expected a whole number from 1 to 64/);
    expect(() => resolveConfig({ protocols: ['messages,bedrock'] }, {}, {})).toThrow(/--protocols: unknown protocol "bedrock"/);
    expect(() => resolveConfig({ modelRoutes: ['nope'] }, {}, {})).toThrow(/--model-routes: expected requested=routed/);
  });
});
