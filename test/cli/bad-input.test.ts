// Bad input to the CLI ends in one clear line and exit 2, before anything starts: a credential a
// header cannot carry, malformed or misplaced gwc.yaml, mistyped flags and keys, an overridden
// environment value, report folders that do not add up. Run in process through main().
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main, type Io } from '../../cli/program.js';
import { summarize, type RunReport } from '../../src/report/shared/types.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'gwc-bad-'));

/** Runs the CLI in process; what it printed on each stream, its exit code and how long it took. */
async function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string[]; err: string[]; ms: number }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (s) => out.push(s), err: (s) => err.push(s), env, untilStopped: async () => {} };
  const t0 = Date.now();
  const code = await main(args, io);
  return { code, out, err, ms: Date.now() - t0 };
}

/** The one line on standard error (no stack trace, nothing else). */
function oneLine(r: { err: string[] }): string {
  const lines = r.err.join('\n').trim().split('\n');
  expect(lines, r.err.join('\n')).toHaveLength(1);
  expect(lines[0]).not.toMatch(/\n\s+at /);
  return lines[0];
}

// Nothing listens on port 1: a run that got past the setup would say "unreachable" instead.
const TARGET = ['--target', 'http://127.0.0.1:1', '--reporter', 'console'];

describe('a credential a request header cannot carry is refused before the run', () => {
  it('--token with a line break, and GWC_TOKEN with one: one line, exit 2, the secret not repeated', async () => {
    const flag = await run(['run', ...TARGET, '--token', 'sk-abc\ndef']);
    expect(flag.code).toBe(2);
    expect(oneLine(flag)).toBe('gw-conformance: error GWC-BAD-FLAG: --token holds a line break (read from a file with its newline?): a request header carries one line; give the credential without it');
    const env = await run(['run', ...TARGET], { GWC_TOKEN: 'sk-abc\r\n' });
    expect(oneLine(env)).toMatch(/^gw-conformance: error GWC-BAD-FLAG: GWC_TOKEN holds a line break/);
    expect([...flag.err, ...env.err].join('\n')).not.toContain('sk-abc');
  });

  it('a token of spaces only, a control character, a token-env variable with a line break', async () => {
    const spaces = await run(['run', ...TARGET, '--token', '   ']);
    expect(spaces.code).toBe(2);
    expect(oneLine(spaces)).toBe("gw-conformance: error GWC-BAD-FLAG: --token is only spaces: give the gateway's credential, or, if the gateway takes no credential, --no-token (`token: none` in gwc.yaml)");
    expect(oneLine(await run(['run', ...TARGET, '--token', 'sk\u0007x']))).toMatch(/^gw-conformance: error GWC-BAD-FLAG: --token holds a control character/);
    const dir = tmp();
    writeFileSync(join(dir, 'gwc.yaml'), 'token-env: MY_KEY\n');
    const named = await run(['run', ...TARGET, '--config', join(dir, 'gwc.yaml')], { MY_KEY: 'k\n' });
    expect(oneLine(named)).toMatch(/^gw-conformance: error GWC-BAD-CONFIG: token-env: the variable MY_KEY holds a line break/);
  });
});

describe('gwc.yaml and other YAML the harness reads: one line with the file, line, column and reason', () => {
  it('a malformed --config file: file:line:col and the YAML library reason, no dangling colon', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'gwc.yaml'), 'target: http://127.0.0.1:1\nonly: [a\n  b: c\n');
    const r = await run(['run', '--config', join(dir, 'gwc.yaml')]);
    expect(r.code).toBe(2);
    expect(oneLine(r)).toBe(`gw-conformance: error GWC-BAD-CONFIG: ${join(dir, 'gwc.yaml')}:2:8: not valid YAML: Implicit keys of flow sequence pairs need to be on a single line`);
  });

  it("verify of a folder whose conformance-report.yaml is malformed: the reason, not the library's error code", async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'conformance-report.yaml'), 'kind: ConformanceReport\nprofiles: [1, 2\n');
    const r = await run(['verify', dir]);
    expect(r.code).toBe(2);
    expect(oneLine(r)).toBe(`gw-conformance: error GWC-BAD-REPORT: ${join(dir, 'conformance-report.yaml')}:3:1: not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]`);
  });

  it('a waivers file: the column too, in the same form', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'waivers.yaml'), 'waivers:\n  - check: a\n   reason: b\n');
    expect(oneLine(await run(['run', ...TARGET, '--waivers', join(dir, 'waivers.yaml')]))).toBe(`gw-conformance: error GWC-BAD-CONFIG: ${join(dir, 'waivers.yaml')}:3:1: not valid YAML: Sequence item without - indicator`);
  });

  it('--config given a folder says it is a folder', async () => {
    const dir = tmp();
    const r = await run(['run', '--config', dir]);
    expect(r.code).toBe(2);
    expect(oneLine(r)).toBe(`gw-conformance: error GWC-BAD-CONFIG: config file ${dir} is a folder, not a file: give the YAML file itself (e.g. ${dir}/gwc.yaml)`);
  });

  it('an unknown key gets the closest known one, at the top and inside protocols:', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'top.yaml'), 'targte: http://127.0.0.1:1\n');
    writeFileSync(join(dir, 'nested.yaml'), 'protocols:\n  messages:\n    base-pth: /x\n');
    writeFileSync(join(dir, 'far.yaml'), 'zzzzzz: 1\n');
    expect(oneLine(await run(['run', '--config', join(dir, 'top.yaml')]))).toBe(`gw-conformance: error GWC-BAD-CONFIG: ${join(dir, 'top.yaml')}: unknown key "targte"; did you mean "target"?`);
    expect(oneLine(await run(['run', '--config', join(dir, 'nested.yaml')]))).toBe(`gw-conformance: error GWC-BAD-CONFIG: ${join(dir, 'nested.yaml')}: unknown key "protocols.messages.base-pth"; did you mean "base-path"?`);
    // Nothing close: no guess.
    expect(oneLine(await run(['run', '--config', join(dir, 'far.yaml')]))).toBe(`gw-conformance: error GWC-BAD-CONFIG: ${join(dir, 'far.yaml')}: unknown key "zzzzzz"`);
  });
});

describe('an environment value a flag overrides is not read', () => {
  it('a bad GWC_SEED beside --seed is not refused; alone it still is; lists that add up still read both', async () => {
    const overridden = await run(['run', ...TARGET, '--seed', '3'], { GWC_SEED: 'abc' });
    // Past the setup: the run got as far as the (unreachable) target.
    expect(oneLine(overridden)).toMatch(/^gw-conformance: error GWC-TARGET-UNREACHABLE: target http:\/\/127\.0\.0\.1:1 is unreachable/);
    expect(oneLine(await run(['run', ...TARGET], { GWC_SEED: 'abc' }))).toBe('gw-conformance: error GWC-BAD-FLAG: GWC_SEED: expected a whole number from -2147483648 to 2147483647, got "abc"');
    expect(oneLine(await run(['run', ...TARGET, '--skip', 'messages'], { GWC_SKIP: 'no-such-check' }))).toMatch(/^gw-conformance: error GWC-UNKNOWN-CHECK: --skip.*no-such-check/);
  });
});

describe("commander's errors in the tool's words", () => {
  it("an unknown flag: the tool's prefix, the closest flags of the command (those the short help hides too), where the flags are", async () => {
    const typo = await run(['run', '--targte', 'http://127.0.0.1:1']);
    expect(typo.code).toBe(2);
    expect(oneLine(typo)).toBe("gw-conformance: error GWC-USAGE: unknown option '--targte' (did you mean --target?); see `gw-conformance run --help`");
    // --upstream-tls is in a group plain --help leaves out: commander suggested nothing for it.
    expect(oneLine(await run(['run', '--upstream-tl']))).toBe("gw-conformance: error GWC-USAGE: unknown option '--upstream-tl' (did you mean --upstream-tls?); see `gw-conformance run --help`");
    expect(oneLine(await run(['list', '--jsn']))).toBe("gw-conformance: error GWC-USAGE: unknown option '--jsn' (did you mean --json?); see `gw-conformance list --help`");
    expect(oneLine(await run(['list', '--zzzzzzzz']))).toBe("gw-conformance: error GWC-USAGE: unknown option '--zzzzzzzz'; see `gw-conformance list --help`");
  });

  it('the other usage errors: one line with the prefix and where the flags are', async () => {
    const missing = await run(['merge-reports', tmp()]);
    expect(missing.code).toBe(2);
    expect(oneLine(missing)).toBe("gw-conformance: error GWC-USAGE: required option '--out <dir>' not specified; see `gw-conformance merge-reports --help`");
    expect(oneLine(await run(['run', '--target']))).toBe("gw-conformance: error GWC-USAGE: option '--target <url>' argument missing; see `gw-conformance run --help`");
  });

  // Each kind of mistake commander finds (its error codes), and the unknown command the program finds before it.
  const KINDS: Array<[string, string[], RegExp]> = [
    ['unknown command', ['lsit'], /unknown command 'lsit' \(did you mean list\?\)/],
    ['unknown option', ['list', '--jsn'], /unknown option '--jsn'/],
    ["option's value missing", ['run', '--protocols'], /option '--protocols <list>' argument missing/],
    ['required option missing', ['keygen'], /required option '--out <dir>' not specified/],
    ['argument missing', ['lint-config'], /missing required argument 'file'/],
    ['too many arguments', ['list', 'extra'], /too many arguments for 'list'/],
    ["option's value not a choice", ['matrix', tmp(), '--out', tmp(), '--format', 'pdf'], /option '--format <name>' argument 'pdf' is invalid\. Allowed choices are/],
    ["argument not a choice", ['completion', 'tcsh'], /command-argument value 'tcsh' is invalid for argument 'shell'\. Allowed choices are/],
  ];
  for (const [kind, args, words] of KINDS)
    it(`${kind}: exit 2, one line with the code GWC-USAGE`, async () => {
      const r = await run(args);
      expect(r.code).toBe(2);
      const line = oneLine(r);
      expect(line.startsWith('gw-conformance: error GWC-USAGE: '), line).toBe(true);
      expect(line).toMatch(words);
    });
});

describe('merge-reports refuses reports that do not add up to one run', () => {
  const ONLY = ['messages.path.preserved', 'chat.path.preserved'].flatMap((id) => ['--only', id]);

  it('one folder given twice (however spelt, even with --force), and one shard of two (unless --force)', { timeout: 60_000 }, async () => {
    const root = tmp();
    const s1 = join(root, 's1');
    const r = await run(['demo', '--seed', '4', '--shard', '1/2', ...ONLY, '--reporter', 'json', '--out', s1]);
    expect(r.code, r.err.join('\n')).toBe(0);
    // Its other half, as shard 2 of the same run would write it (no check of its own).
    const first = JSON.parse(readFileSync(join(s1, 'report.json'), 'utf8')) as RunReport;
    const s2 = join(root, 's2');
    mkdirSync(s2);
    writeFileSync(join(s2, 'report.json'), JSON.stringify({ ...first, shard: { ...first.shard, index: 2 }, results: [], summary: summarize([]), exitCode: 0 }));
    const merged = join(root, 'merged');
    const twice = await run(['merge-reports', s1, s1, '--out', merged]);
    expect(twice.code).toBe(2);
    expect(oneLine(twice)).toBe(`gw-conformance: error GWC-MERGE-REFUSED: merge-reports: ${s1} is given twice; name each report once`);
    const spelt = await run(['merge-reports', s1, `${s1}/report.json`, '--out', merged, '--force']);
    expect(oneLine(spelt)).toBe(`gw-conformance: error GWC-MERGE-REFUSED: merge-reports: ${s1} and ${s1}/report.json are the same report (${s1}/report.json); name each report once`);
    const half = await run(['merge-reports', s1, '--out', merged]);
    expect(half.code).toBe(2);
    expect(oneLine(half)).toBe(`gw-conformance: error GWC-MERGE-REFUSED: merge-reports: refusing to merge: shard 2/2 is missing (given: 1/2 in ${s1}) (--force merges anyway)`);
    // Both shards merge; one alone merges when forced, saying what is missing.
    const both = await run(['merge-reports', s1, s2, '--out', merged, '--reporter', 'json']);
    expect([both.code, both.err]).toEqual([0, []]);
    const forced = await run(['merge-reports', s1, '--out', merged, '--force', '--reporter', 'json']);
    expect(forced.code).toBe(0);
    expect(forced.err).toEqual([`gw-conformance: merge-reports --force: shard 2/2 is missing (given: 1/2 in ${s1})`]);
  });
});

describe('the client profile under --no-token refuses the clients that cannot start without a credential', () => {
  // Before: demo ran them for 78 s, each exited before its first request, and every check said it could not judge (exit 0).
  it('claude-code, codex and gemini-cli, and the openai SDK: one line naming them, exit 2, before anything starts', async () => {
    const three = await run(['demo', '--profile', 'client', '--clients', 'claude-code,codex,gemini-cli', '--no-token', '--reporter', 'console']);
    expect(three.code).toBe(2);
    expect(oneLine(three)).toBe(
      "gw-conformance: error GWC-BAD-FLAG: --no-token: claude-code, codex and gemini-cli do not start without a credential (given none, each stops before its first request), so the client profile would judge nothing: give the gateway's credential with --token, or leave them out of --clients",
    );
    expect(three.out.join('\n')).not.toMatch(/client profile:/);
    const sdk = await run(['run', '--profile', 'client', '--target', 'http://127.0.0.1:1', '--clients', 'anthropic-sdk,openai', '--no-token', '--reporter', 'console']);
    expect(sdk.code).toBe(2);
    expect(oneLine(sdk)).toMatch(/^gw-conformance: error GWC-BAD-FLAG: --no-token: openai does not start without a credential \(given none, it stops before its first request\)/);
  });
});
