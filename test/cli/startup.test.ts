// What the CLI loads at start-up (cli/program.ts): every command is registered with commander
// and the option table only, and its action loads its own modules (the checks, the reference
// gateway, the recording upstream, the reports, the linter) when it runs. Measured from inside
// the process (the bin, as a user starts it): the libraries in node's module cache at exit.
// `--version` and `--help` load commander alone; a command that runs loads what it needs.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/** Loaded before the bin (node --import): prints at exit the packages under node_modules the process loaded. */
const PROBE = `data:text/javascript,${encodeURIComponent(`
import { createRequire } from 'node:module';
const pkg = (k) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(k)?.[1];
process.on('exit', () => process.stderr.write('LIBS ' + JSON.stringify([...new Set(Object.keys(createRequire(process.cwd() + '/').cache).map(pkg).filter(Boolean))]) + '\\n'));
`)}`;

function librariesOf(args: string[]): string[] {
  const r = spawnSync(process.execPath, ['--import', PROBE, join(ROOT, 'bin/gw-conformance.js'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  const m = /LIBS (.*)/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`exit ${r.status}: ${r.stderr.slice(-400)}`);
  return (JSON.parse(m[1]) as string[]).sort();
}

describe('start-up', () => {
  it('--version, --help and a command\'s --help load commander alone: no check, gateway client, schema or YAML library', () => {
    for (const args of [['--version'], ['--help'], ['run', '--help'], ['demo', '--help-all']]) expect(librariesOf(args), args.join(' ')).toEqual(['commander']);
  });

  it('a command that runs loads what it needs (what the probe would see at start-up)', () => {
    // demo --dry-run resolves the run's settings (yaml, ajv) and loads the checks and the reference gateway (undici), and sends nothing.
    expect(librariesOf(['demo', '--dry-run'])).toEqual(expect.arrayContaining(['commander', 'undici', 'ajv', 'yaml']));
  });
});
