// `gw-conformance completion <shell>`: the bash script is loaded into bash and asked, through
// COMP_WORDS / COMP_CWORD and the function `complete -p` names, what it offers; what it offers is
// held to the command list and the option table (src/config/commands.ts, src/config/options.ts),
// never to a list kept here. The zsh and fish scripts are held to the same facts as text (neither
// shell is on the test machine).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS, optionsOf } from '../src/config/commands.js';
import { COMMAND_NAMES, PROFILES } from '../src/config/options.js';
import { FAULTS } from '../reference/faults/index.js';
import { CHECKS } from '../suites/index.js';
import { cli } from './helpers/cli.js';

/** The flags the table gives a command (with --no-NAME), and commander's and the project's help flags. */
const tableFlags = (name: (typeof COMMAND_NAMES)[number]) => [...optionsOf(name).flatMap((o) => [`--${o.name}`, ...(o.negate ? [`--no-${o.name}`] : [])]), '--help', '--help-all'].sort();

let script = '';
let dir = '';

/** What the loaded script offers for each command line (the last word is the one being completed). */
function offers(...lines: string[][]): string[][] {
  const calls = lines.map((words) => `ask ${words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ')}`).join('\n');
  const driver = `source ./completion.bash
fn=$(complete -p gw-conformance | sed -n 's/.* -F \\([^ ]*\\) .*/\\1/p')
ask() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=\${#COMP_LINE}; COMPREPLY=(); "$fn"; printf '%s\\n' "\${COMPREPLY[@]}" | sort; echo '<end>'; }
${calls}
`;
  const r = spawnSync('bash', ['--noprofile', '--norc', '-c', driver], { cwd: dir, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stderr).toBe('');
  return r.stdout.split('<end>\n').slice(0, lines.length).map((block) => block.split('\n').filter(Boolean));
}

describe('completion bash, loaded in bash', () => {
  beforeAll(async () => {
    const r = await cli(['completion', 'bash']);
    expect(r.code, r.stderr).toBe(0);
    script = r.stdout;
    // A folder with files a glob or a file completion could offer.
    dir = mkdtempSync(join(tmpdir(), 'gwc-completion-'));
    writeFileSync(join(dir, 'completion.bash'), script);
    writeFileSync(join(dir, 'gwc.yaml'), '');
    writeFileSync(join(dir, 'messages.path.zz-file'), '');
    mkdirSync(join(dir, 'reports-a'));
  });

  it('registers a function for gw-conformance (complete -p)', () => {
    const r = spawnSync('bash', ['--noprofile', '--norc', '-c', 'source ./completion.bash && complete -p gw-conformance'], { cwd: dir, encoding: 'utf8' });
    expect(r.stdout.trim()).toMatch(/^complete -F _\w+ gw-conformance$/);
  });

  it('offers the commands, then each command its flags as the option table gives them', () => {
    const commands = [...COMMAND_NAMES];
    const [all, co, ...flags] = offers(['gw-conformance', ''], ['gw-conformance', 'co'], ...commands.map((c) => ['gw-conformance', c, '-']));
    expect(all).toEqual([...commands].sort());
    expect(co).toEqual(['compare', 'completion']);
    flags.forEach((f, i) => expect(f, commands[i]).toEqual(tableFlags(commands[i])));
  });

  it("without a command: run's flags (the default command) and --version", () => {
    const [flags, pro] = offers(['gw-conformance', '--'], ['gw-conformance', '--target', 'http://x', '--pro']);
    expect(flags).toEqual([...new Set([...tableFlags('run'), '--version'])].sort());
    expect(pro).toEqual(['--profile', '--protocols']);
  });

  it("a flag's values: the table's, the faults and the check ids; files and folders; nothing for a free value", () => {
    const [profiles, s, faults, only, config, out, target, shells, verify] = offers(
      ['gw-conformance', 'run', '--profile', ''],
      ['gw-conformance', '--profile', 's'],
      ['gw-conformance', 'demo', '--fault', 'drop'],
      ['gw-conformance', 'run', '--only', 'messages.path'],
      ['gw-conformance', 'run', '--config', 'gw'],
      ['gw-conformance', 'demo', '--out', 'rep'],
      ['gw-conformance', 'run', '--target', ''],
      ['gw-conformance', 'completion', ''],
      ['gw-conformance', 'verify', ''],
    );
    expect(profiles).toEqual([...PROFILES].sort());
    expect(s).toEqual(PROFILES.filter((p) => p.startsWith('s')).sort());
    expect(faults).toEqual(FAULTS.map((f) => f.name).filter((n) => n.startsWith('drop')).sort());
    expect(faults.length).toBeGreaterThan(0);
    // Check ids only: the folder's file named like one is not offered.
    expect(only).toEqual(CHECKS.map((c) => c.id).filter((id) => id.startsWith('messages.path')).sort());
    expect(config).toEqual(['gwc.yaml']);
    expect(out).toEqual(['reports-a']);
    expect(target).toEqual([]);
    expect(shells).toEqual(['bash', 'fish', 'zsh']);
    expect(verify).toEqual(['reports-a']); // verify <dir>: folders
  });
});

describe('completion zsh and fish', () => {
  it('hold every command and every flag of each command', async () => {
    const [zsh, fish] = await Promise.all([cli(['completion', 'zsh']), cli(['completion', 'fish'])]);
    expect([zsh.code, fish.code]).toEqual([0, 0]);
    expect(zsh.stdout).toMatch(/^#compdef gw-conformance\n/);
    expect(zsh.stdout).toContain('compdef _gw_conformance gw-conformance');
    for (const name of COMMAND_NAMES) {
      expect(zsh.stdout, name).toContain(`'${name}:`);
      expect(fish.stdout, name).toContain(`-n '__fish_use_subcommand' -a ${name} `);
      for (const flag of tableFlags(name)) {
        expect(zsh.stdout.match(new RegExp(`^    ${name}\\) _arguments .*'\\*${flag}\\[`, 'm')), `zsh ${name} ${flag}`).not.toBeNull();
        expect(fish.stdout, `fish ${name} ${flag}`).toContain(`-n '__fish_seen_subcommand_from ${name}' -l ${flag.slice(2)}`);
      }
    }
    expect(fish.stdout).toContain(`-l profile -x -a '${PROFILES.join(' ')}'`);
  });

  it('refuses a shell it has no script for, naming the ones it has', async () => {
    const r = await cli(['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe("error: command-argument value 'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.");
    expect(COMMANDS.completion.description).toContain('bash, zsh, fish');
  });
});
