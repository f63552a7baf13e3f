// `gw-conformance completion <shell>`: the bash script is loaded into bash and asked, through
// COMP_WORDS / COMP_CWORD and the function `complete -p` names, what it offers; what it offers is
// held to the command list and the option table (src/config/commands.ts, src/config/options.ts),
// never to a list kept here. The zsh and fish scripts are typed into real zsh and fish (a line and
// a TAB in an interactive zsh; fish's `complete -C`) and held to the same facts.
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS, optionsOf } from '../../src/config/commands.js';
import { COMMAND_NAMES, PROFILES } from '../../src/config/options.js';
import { FAULTS } from '../../reference/faults/index.js';
import { CHECKS } from '../../suites/index.js';
import { cliInProcess } from '../helpers/in-process.js';

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
    const r = await cliInProcess(['completion', 'bash']);
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

/** Whether a shell is on this machine; in CI (GWC_REQUIRE_TOOLS=1) both must be. */
const have = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;
const withShell = (shell: string) => it.skipIf(!have(shell) && process.env.GWC_REQUIRE_TOOLS !== '1');

/**
 * The zsh script in an interactive zsh (zsh/zpty): `compinit`, then a `compadd` that prints each
 * match the completion system adds, between two marks its pre and post hooks print; the line is
 * typed with a TAB as a user types it. One zsh per line, all at once. The completion functions are
 * found once (`compinit -d`, in beforeAll) and each zsh loads that dump (`-C`): scanning them in
 * every zsh took 18 s for the sixteen on a loaded machine, near the 20 s limit.
 */
const ZSH_SETUP = `PROMPT=
autoload -U compinit
compinit -u -C -d ./zcompdump
bindkey '^I' complete-word
zstyle ':completion:*' insert-tab false
mark() { print -r -- '<mark>' }
compprefuncs=( mark )
comppostfuncs=( mark exit )
compadd() {
  if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd "$@"; return $?; fi
  local -a hits
  builtin compadd -A hits "$@"
  (( $#hits )) && print -rl -- "<hit>"\${^hits}
}
source ./completion.zsh
print -r -- '<ready>'
`;
const ZSH_DRIVER = `zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z 'source ./setup.zsh'
local line
while zpty -r z line; do [[ $line == *'<ready>'* && $line != *print* ]] && break; done
zpty -w -n z "$1"$'\\t'
local n=0
while zpty -r z line; do
  [[ $line == *'<mark>'* ]] && { (( n++ )); (( n == 2 )) && break; continue }
  (( n == 1 )) && [[ $line == *'<hit>'* ]] && print -r -- "\${\${line#*<hit>}%$'\\r'}"
done
zpty -d z
`;

/** Runs `shell` on each typed line at once; what it offered, sorted, per line. */
async function typed(shell: 'zsh' | 'fish', lines: string[]): Promise<string[][]> {
  return Promise.all(lines.map((line) => new Promise<string[]>((resolve, reject) => {
    const args = shell === 'zsh' ? ['-f', 'driver.zsh', line] : ['--no-config', '-c', `source ./completion.fish; complete -C ${JSON.stringify(line)}`];
    execFile(shell, args, { cwd: dir, timeout: 20_000, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`${shell} on ${JSON.stringify(line)}: ${err.message}\n${stderr}`));
      // fish prints "match<TAB>description"; zsh prints the match.
      resolve([...new Set(stdout.split('\n').map((l) => l.split('\t')[0].trim()).filter(Boolean))].sort());
    });
  })));
}

describe.each(['zsh', 'fish'] as const)('completion %s, typed into the shell', (shell) => {
  beforeAll(async () => {
    const r = await cliInProcess(['completion', shell]);
    expect(r.code, r.stderr).toBe(0);
    dir = mkdtempSync(join(tmpdir(), `gwc-completion-${shell}-`));
    writeFileSync(join(dir, `completion.${shell}`), r.stdout);
    writeFileSync(join(dir, 'setup.zsh'), ZSH_SETUP);
    writeFileSync(join(dir, 'driver.zsh'), ZSH_DRIVER);
    if (shell === 'zsh' && have(shell)) {
      const dump = spawnSync('zsh', ['-f', '-c', 'autoload -U compinit && compinit -u -d ./zcompdump'], { cwd: dir, encoding: 'utf8' });
      expect(dump.status, dump.stderr).toBe(0);
    }
    writeFileSync(join(dir, 'gwc.yaml'), '');
    mkdirSync(join(dir, 'reports-a'));
  });

  withShell(shell)('offers the commands, each command its flags as the option table gives them, and the values of a flag', { timeout: 60_000 }, async () => {
    expect(have(shell), `${shell} is required with GWC_REQUIRE_TOOLS=1 (apt-get install ${shell})`).toBe(true);
    const commands = [...COMMAND_NAMES];
    const [all, co, profiles, faults, only, shells, ...flags] = await typed(shell, [
      'gw-conformance ', 'gw-conformance co', 'gw-conformance run --profile ', 'gw-conformance demo --fault drop',
      'gw-conformance run --only messages.path', 'gw-conformance completion ',
      ...commands.map((c) => `gw-conformance ${c} --`),
    ]);
    expect(all).toEqual([...commands].sort());
    expect(co).toEqual(['compare', 'completion']);
    expect(profiles).toEqual([...PROFILES].sort());
    expect(faults).toEqual(FAULTS.map((f) => f.name).filter((n) => n.startsWith('drop')).sort());
    expect(only).toEqual(CHECKS.map((c) => c.id).filter((id) => id.startsWith('messages.path')).sort());
    expect(shells).toEqual(['bash', 'fish', 'zsh']);
    // The table's flags; a shell may offer its own short forms beside them, never miss one.
    flags.forEach((f, i) => expect(f.filter((x) => x.startsWith('--')), commands[i]).toEqual(tableFlags(commands[i])));
  });
});

describe('completion zsh and fish', () => {
  it('refuses a shell it has no script for, naming the ones it has', async () => {
    const r = await cliInProcess(['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe("gw-conformance: error GWC-USAGE: command-argument value 'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish; see `gw-conformance completion --help`");
    expect(COMMANDS.completion.description).toContain('bash, zsh, fish');
  });
});
