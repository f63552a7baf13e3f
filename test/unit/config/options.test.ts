// The one table of options (src/config/options.ts, with the commands' own flags in
// src/config/commands.ts) is what the CLI, gwc.yaml's schema, the resolved settings, the CLI
// reference (docs/cli.md) and the README all come from; --help shows them in groups with examples.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_SCHEMA, resolveConfig } from '../../../src/config/config.js';
import { configSchemaText, FLAG_OPTIONS, ROWS } from '../../../src/config/options.js';
import { Ajv } from 'ajv';
import YAML from 'yaml';
import { cliReferenceMarkdown, COMMAND_OPTIONS, COMMANDS, optionsOf } from '../../../src/config/commands.js';
import { HELP_GROUPS, SHORT_HELP_GROUPS } from '../../../src/config/help.js';
import { COMMAND_NAMES } from '../../../src/config/options.js';
import { ROOT } from '../../helpers/cli.js';
import { cliInProcess } from '../../helpers/in-process.js';

describe('the option table', () => {
  it('is docs/cli.md (regenerate with `npm run docs:cli`)', () => {
    expect(readFileSync(join(ROOT, 'docs/cli.md'), 'utf8')).toBe(cliReferenceMarkdown());
  });

  it("is what every command's --help offers, each flag once, and the commands are the table's", async () => {
    const top = await cliInProcess(['--help']);
    const listed = [...top.stdout.matchAll(/^\s{2}([a-z-]+)(?: \[options\]| <|\s)/gm)].map((m) => m[1]).filter((c) => c !== 'help');
    expect(listed).toEqual([...COMMAND_NAMES]);
    for (const name of COMMAND_NAMES) {
      const r = await cliInProcess([name, '--help-all']);
      expect(r.code, name).toBe(0);
      expect(r.stdout, name).toContain(COMMANDS[name].description.slice(0, 40));
      // An option's line starts with two spaces; wrapped help lines are indented further.
      const offered = [...r.stdout.matchAll(/^ {2}(--[a-z0-9-]+)/gm)].map((x) => x[1]).filter((f) => f !== '--help');
      expect(offered.sort(), name).toEqual(optionsOf(name).flatMap((o) => [`--${o.name}`, ...(o.negate ? [`--no-${o.name}`] : [])]).sort());
    }
  });

  it('verify takes the same rows as run (one help text each), and shows only the environment variable it reads', () => {
    const run = optionsOf('run');
    const verify = optionsOf('verify');
    expect(verify.map((o) => o.name)).toEqual(['target', 'upstream-listen', 'token', 'gateway-cmd', 'gateway-env', 'public-key']);
    // --public-key is verify's own flag (the signed statement); the others are run's rows.
    for (const o of verify.filter((x) => x.name !== 'public-key')) expect(o.help, o.name).toBe(run.find((r) => r.name === o.name)?.help);
    expect(verify.filter((o) => o.env).map((o) => o.env)).toEqual(['GWC_TOKEN']);
    expect(verify[0].defaultText).toBe('the recorded target');
  });

  it('is what `run --help-all` offers, each flag once', async () => {
    const r = await cliInProcess(['run', '--help-all']);
    expect(r.code).toBe(0);
    // Each flag starts one line of the options (help texts and the examples may name it again).
    for (const o of FLAG_OPTIONS) expect(r.stdout.match(new RegExp(`^ {2}--${o.name}\\b(?!-)`, 'gm')), o.name).toHaveLength(1);
    // Nothing offered that the tables do not describe (besides commander's own --help): the run settings and run's own flags.
    const offered = [...r.stdout.matchAll(/^ {2}(--[a-z0-9-]+)/gm)].map((x) => x[1]).filter((f) => f !== '--help');
    const own = COMMAND_OPTIONS.filter((o) => o.commands?.includes('run'));
    expect(offered.sort()).toEqual([...FLAG_OPTIONS, ...own].flatMap((o) => [`--${o.name}`, ...(o.negate ? [`--no-${o.name}`] : [])]).sort());
  });

  it('is the schema of gwc.yaml: every key the file takes, and no other', () => {
    const schema = CONFIG_SCHEMA as { properties: Record<string, unknown>; additionalProperties?: boolean };
    const keys = Object.keys(schema.properties);
    // Named here, not by the table's filter: what a file never holds (the file's own path, the
    // secret, what the file sets per protocol under `protocols:`), what only a file holds, and no
    // key beyond its properties.
    for (const k of ['config', 'base-path', 'header']) expect(keys, k).not.toContain(k);
    expect(keys).toContain('token-env');
    // The secret itself never: the file can only say the gateway takes none.
    expect(schema.properties.token).toMatchObject({ enum: ['none'] });
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
    expect(() => resolveConfig({ protocols: ['messages,bogus'] }, {}, {})).toThrow(/--protocols: unknown protocol "bogus"/);
    expect(() => resolveConfig({ modelRoutes: ['nope'] }, {}, {})).toThrow(/--model-routes: expected requested=routed/);
  });
});

describe('--help', () => {
  it('run --help shows the common groups and names the others and --help-all; every flag it shows is in one of them', async () => {
    const r = await cliInProcess(['run', '--help']);
    expect(r.code).toBe(0);
    const headings = [...r.stdout.matchAll(/^([A-Z][A-Za-z ]+):$/gm)].map((m) => `${m[1]}:`);
    expect(headings).toEqual([...[...HELP_GROUPS].filter((g) => SHORT_HELP_GROUPS.includes(g)), 'Options:', 'Examples:']);
    const hidden = [...HELP_GROUPS].filter((g) => !SHORT_HELP_GROUPS.includes(g));
    expect(r.stdout.trimEnd().split('\n').slice(-2)).toEqual([`More options: ${hidden.map((g) => g.slice(0, -1)).join(', ')}.`, 'Every flag: gw-conformance run --help-all']);
    for (const f of ['--target', '--token', '--profile', '--reporter']) expect(r.stdout).toMatch(new RegExp(`^ {2}${f}\\b`, 'm'));
    for (const f of ['--load-rate', '--http2', '--timeout-ms']) expect(r.stdout).not.toMatch(new RegExp(`^ {2}${f}\\b`, 'm'));
    // A command whose flags are all common has no such line.
    expect((await cliInProcess(['list', '--help'])).stdout).not.toContain('--help-all');
  });

  it('groups run --help-all by purpose, ends with examples, and never says "default default"', async () => {
    const r = await cliInProcess(['run', '--help-all']);
    const headings = [...r.stdout.matchAll(/^([A-Z][A-Za-z ]+):$/gm)].map((m) => `${m[1]}:`);
    expect(headings).toEqual([...[...HELP_GROUPS], 'Options:', 'Examples:']);
    expect(r.stdout).not.toMatch(/default default/);
    expect(r.stdout).toMatch(/--profile <name>[\s\S]*\(default: "default"\)/);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(/^ {2}\$ gw-conformance run /);
  });

  it('puts every run setting in a help group', () => {
    // The row's group is required by the table's type; here: every group is used and shown.
    expect(ROWS.filter((o) => !o.group).map((o) => o.name)).toEqual([]);
    expect([...new Set(ROWS.map((o) => o.group))].sort()).toEqual([...HELP_GROUPS].sort());
  });

  it('the top-level help shows the first three commands and --target', async () => {
    const r = await cliInProcess(['--help']);
    expect(r.stdout).toMatch(/First steps:\n {2}\$ gw-conformance demo .*\n {2}\$ gw-conformance mock .*\n {2}\$ gw-conformance run --target /);
  });
});

describe('schemas/gwc.schema.json', () => {
  const shipped = readFileSync(join(ROOT, 'schemas/gwc.schema.json'), 'utf8');

  it('is the schema made from the table (regenerate with `npm run docs:cli`)', () => {
    expect(shipped).toBe(configSchemaText());
    const { $comment, ...schema } = JSON.parse(shipped);
    expect($comment).toMatch(/Generated/);
    expect(schema).toEqual(JSON.parse(JSON.stringify(CONFIG_SCHEMA)));
  });

  it('is what docs/getting-started.md points editors to, and its gwc.yaml example is valid against it', () => {
    const doc = readFileSync(join(ROOT, 'docs/getting-started.md'), 'utf8');
    const block = /```yaml\n(# yaml-language-server: \$schema=\.\/node_modules\/gw-conformance\/(\S+)\n[\s\S]*?)```/.exec(doc);
    expect(block, 'a gwc.yaml block with the yaml-language-server line').not.toBeNull();
    expect(block![2]).toBe('schemas/gwc.schema.json');
    const validate = new Ajv({ allErrors: true }).compile(JSON.parse(shipped));
    expect(validate(YAML.parse(block![1])), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ token: 'sk-a-secret' })).toBe(false);
    expect(validate({ token: 'none' })).toBe(true);
  });
});
