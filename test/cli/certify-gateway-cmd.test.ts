// A certify folder made with --gateway-cmd reproduces as its README says, after the run: it
// records the command that started the gateway (not the one-run target, nor an upstream address
// the run did not use), and `verify .` in the folder starts the gateway again on new ports and
// reproduces every verdict. Both commands run as processes, the way a reader runs them.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { cli, ROOT } from '../helpers/cli.js';

describe('certify --gateway-cmd, then verify as the README says', () => {
  it('records the gateway command and no one-run port; verify starts it again and reproduces', { timeout: 180_000 }, async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'gwc-certify-cmd-')), 'cert');
    const gatewayCmd = `"${process.execPath}" "${join(ROOT, 'bin', 'gw-conformance.js')}" reference --listen 127.0.0.1:{listen_port} --upstream {upstream_url}`;
    const made = await cli(['certify', '--gateway-cmd', gatewayCmd, '--only', 'messages.headers.version', '--only', 'messages.path.preserved', '--no-token', '--out', dir, '--implementation-name', 'ref', '--implementation-version', '1']);
    expect(made.code, made.stderr).toBe(0);
    const doc = YAML.parse(readFileSync(join(dir, 'conformance-report.yaml'), 'utf8')) as { settings: Record<string, unknown>; runReport: { target: string }; reproduce: { verify: string; run: string } };
    expect(doc.settings['gateway-cmd']).toBe(gatewayCmd);
    expect(doc.settings).not.toHaveProperty('upstream-listen');
    const port = new URL(doc.runReport.target).port;
    for (const line of [doc.reproduce.verify, doc.reproduce.run]) {
      expect(line).not.toContain('--target');
      expect(line).not.toContain('--upstream-listen');
      expect(line).not.toContain(`:${port}`);
    }
    expect(doc.reproduce.verify).toBe('gw-conformance verify .');
    const readme = readFileSync(join(dir, 'README.md'), 'utf8');
    const shown = /## Reproduce[\s\S]*?```sh\n(.+)\n```/.exec(readme)?.[1];
    expect(shown).toBe(doc.reproduce.verify);
    // The README's command, in the folder, after the run.
    const again = await cli(shown!.split(' ').slice(1), { cwd: dir });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain('the gateway started by --gateway-cmd');
    expect(again.stdout).toContain('verdicts: 2 of 2 reproduced');
    expect(again.stdout).toContain('Result: reproduced.');
  });
});
