// The commands and the flags that belong to one command only (the run settings, shared by the
// commands that run the suite, are in src/config/options.ts). With that table this is the whole
// command line: what commander offers (cli/shared/context.ts) and the CLI reference (docs/cli.md,
// written by scripts/cli-reference.mjs; a test compares them).
import { COMMAND_NAMES, ROWS, RUN_COMMANDS, type CommandName, type OptionSpec } from './options.js';

/** The shells `completion` writes a script for. */
export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

export interface CommandSpec {
  /** Positional arguments as commander reads them (`<dir>`, `<file...>`), with their help. */
  args?: ReadonlyArray<{ name: string; help: string }>;
  description: string;
  /** The command reads only these of its options' environment variables (verify re-runs recorded settings). */
  env?: readonly string[];
  /** Defaults of run-settings rows that differ for this command (as the documentation shows them). */
  defaults?: Readonly<Record<string, string>>;
  /** Command lines closing its --help and its section of the CLI reference. */
  examples?: readonly string[];
}

export const COMMANDS: Record<CommandName, CommandSpec> = {
  run: {
    description: 'run the suite against a gateway (default command)',
    examples: [
      'gw-conformance run --target http://127.0.0.1:8080 --token "$GATEWAY_KEY"',
      'gw-conformance run --target http://127.0.0.1:8080 --no-token            # a gateway that takes no credential',
      "gw-conformance run --gateway-cmd 'my-gateway --port {listen_port} --upstream {upstream_url}'",
      "gw-conformance run --target http://127.0.0.1:8080 --only 'messages.*' --skip messages.auth",
      'gw-conformance run --target http://127.0.0.1:8080 --reporter console --reporter html --out reports/',
    ],
  },
  demo: {
    description: 'run the suite against the built-in reference gateway',
    examples: ['gw-conformance demo', 'gw-conformance demo --fault buffer-stream --only streaming', 'gw-conformance list --faults   # every fault the reference gateway can inject'],
  },
  certify: {
    description: 'run the profile and write a conformance report folder (conformance-report.yaml, report.json, junit.xml, report.html, transcript, README)',
    examples: ['gw-conformance certify --target http://127.0.0.1:8080 --implementation-name my-gateway --implementation-version 1.2.0 --out conformance/'],
  },
  verify: { description: 're-run a certify folder with its recorded seed and settings; exit 0 reproduced, 1 not, 2 could not run', args: [{ name: '<dir>', help: 'the folder certify wrote' }], env: ['GWC_TOKEN'], defaults: { target: 'the recorded target', 'upstream-listen': 'the recorded address' } },
  'merge-reports': { description: 'merge the JSON reports of shards (folders holding report.json) into one report, written by every reporter; load shards\' histograms are merged exactly', args: [{ name: '<dir...>', help: 'report folders (or report.json files)' }] },
  mock: { description: 'run only the recording upstream, so the gateway can be configured before the run' },
  reference: { description: 'run the reference gateway on its own' },
  'apps-config': {
    description:
      'write a gateway configuration (public dialect) for the apps profile, and its secrets beside it (FILE.env, mode 0600); the IdP, collector and upstreams are the loopback addresses `run --profile apps --apps-config FILE` will listen on',
  },
  list: { description: 'list every check and the coverage of the requirement catalog' },
  'lint-config': { description: 'lint apps gateway configuration files (CFG-* rules); - reads standard input', args: [{ name: '<file...>', help: 'gateway.yaml files, or - for standard input' }] },
  compare: {
    description: 'compare two runs\' reports per check and per capability cell: regressions (passed, now fails), fixes, new, gone and skipped checks; exit 1 on a regression, 0 without, 2 when a report cannot be read or a run was interrupted',
    args: [
      { name: '<base>', help: 'the earlier run: a report folder (holding report.json) or a report.json file' },
      { name: '<new>', help: 'the run to judge against it, the same way' },
    ],
    examples: ['gw-conformance compare reports/main/ reports/pr/', 'gw-conformance compare main/report.json pr/report.json --format markdown --out comparison.md', 'gw-conformance compare main/ pr/ --format github --ignore-level INFO'],
  },
  keygen: {
    description: 'write an Ed25519 key pair for signing certify folders: gwc-signing.key (private, PEM PKCS#8, mode 0600) and gwc-signing.pub (public, PEM)',
    examples: ['gw-conformance keygen --out keys/', 'gw-conformance certify --target http://127.0.0.1:8080 --implementation-name my-gateway --implementation-version 1.2.0 --out conformance/ --signing-key keys/gwc-signing.key', 'gw-conformance verify conformance/ --public-key keys/gwc-signing.pub'],
  },
  matrix: {
    description: 'many runs on one page: gateways × checks and gateways × capability cells (JSON and streamed), each cell linked to the check in that run\'s report.html',
    args: [{ name: '<dir...>', help: 'report folders (or report.json files), one column each' }],
    examples: ['gw-conformance matrix runs/nginx runs/haproxy --label runs/nginx=nginx@1.22.1 --out matrix/', 'gw-conformance matrix runs/* --format markdown --out .'],
  },
  completion: {
    description: `print a shell completion script (${COMPLETION_SHELLS.join(', ')}) for the commands, their flags and the flags' values, made from the command list and the option table`,
    args: [{ name: '<shell>', help: COMPLETION_SHELLS.join(', ') }],
    examples: ['source <(gw-conformance completion bash)          # bash, this shell (or in ~/.bashrc)', 'source <(gw-conformance completion zsh)           # zsh, after compinit', 'gw-conformance completion fish > ~/.config/fish/completions/gw-conformance.fish'],
  },
};

/** Flags of one command: not run settings, never in gwc.yaml; commander parses them. */
const own = (commands: readonly CommandName[], rows: ReadonlyArray<Omit<OptionSpec, 'commands' | 'where'>>): OptionSpec[] => rows.map((r) => ({ ...r, commands, where: 'flag' }));

export const COMMAND_OPTIONS: readonly OptionSpec[] = [
  ...own(['run', 'demo'], [{ name: 'dry-run', kind: 'bool', help: 'list the checks this selection would run (and those it would skip as not declared), then stop: nothing is started or sent', defaultText: 'off' }]),
  ...own(['demo', 'reference'], [{ name: 'fault', kind: 'enum', arg: '<name>', help: 'break one requirement on purpose (`list --faults` names them)', defaultText: 'none' }]),
  ...own(
    ['certify'],
    [
      { name: 'implementation-name', kind: 'string', arg: '<name>', help: 'the gateway product under test (required)', defaultText: '' },
      { name: 'implementation-version', kind: 'string', arg: '<version>', help: 'its version (required)', defaultText: '' },
      { name: 'organization', kind: 'string', arg: '<org>', help: 'who makes it', defaultText: '' },
      { name: 'url', kind: 'string', arg: '<url>', help: 'its home page', defaultText: '' },
      { name: 'contact', kind: 'string', arg: '<email>', help: 'who to ask about this report', defaultText: '' },
      { name: 'signing-key', kind: 'string', arg: '<file>', env: 'GWC_SIGNING_KEY', secret: true, help: 'sign the folder: an Ed25519 private key (PEM, PKCS#8; `keygen` writes one), a file, or the PEM itself in the variable. certify then writes statement.intoto.jsonl, an in-toto statement of every report file and its SHA-256 in a DSSE envelope (docs/reports.md); the key is never written or printed', defaultText: 'not signed' },
    ],
  ),
  ...own(['verify'], [{ name: 'public-key', kind: 'string', arg: '<file>', help: "first check statement.intoto.jsonl, offline: its signature by this Ed25519 public key (PEM), every signed file's SHA-256, and the signed verdicts against conformance-report.yaml and report.json; a folder that is not what was signed is one line and exit 1, a missing statement too", defaultText: 'not checked' }]),
  ...own(
    ['merge-reports'],
    [
      { name: 'out', kind: 'string', arg: '<dir>', required: true, help: 'where to write the merged reports (required)', defaultText: '' },
      { name: 'force', kind: 'bool', help: 'merge runs of different harness versions, seeds, targets, profiles or declared features anyway, and the shards given when one is missing (never one report given twice)', defaultText: 'off' },
    ],
  ),
  ...own(
    ['mock'],
    [
      { name: 'listen', kind: 'string', arg: '<host:port>', help: 'address to listen on (loopback by default)', flagDefault: '127.0.0.1:18080', defaultText: '`127.0.0.1:18080`' },
      { name: 'service', kind: 'bool', help: 'stand in for the hosted service instead (for `run --profile service`): realistic answers on the three protocols under the key in GWC_SERVICE_KEY', defaultText: 'off' },
      { name: 'capture', kind: 'string', arg: '<file>', help: 'answer requests with no case token as the real API would, and append every request (credentials masked) to this JSON-lines file', defaultText: '' },
      { name: 'capture-delay', kind: 'list', arg: '<path=ms>', help: 'with --capture: answer requests to PATH this many ms late, e.g. /v1/models=10000 (repeatable)', flagDefault: [], defaultText: '' },
      { name: 'attach-from', kind: 'list', arg: '<cidr>', help: 'addresses that may attach load runs (`run --attach`), as CIDR blocks or single addresses, e.g. 10.0.0.0/8 (repeatable); without it, loopback only. Runs of other profiles are always loopback only', flagDefault: [], defaultText: 'loopback only' },
    ],
  ),
  ...own(
    ['reference'],
    [
      { name: 'listen', kind: 'string', arg: '<host:port>', help: 'address to listen on', flagDefault: '127.0.0.1:8080', defaultText: '`127.0.0.1:8080`' },
      { name: 'upstream', kind: 'url', arg: '<url>', help: 'where to forward', flagDefault: 'http://127.0.0.1:18080', defaultText: '`http://127.0.0.1:18080`' },
      { name: 'upstream-timeout-ms', kind: 'int', arg: '<ms>', help: "how long to wait for the upstream's response headers before a JSON 504", defaultText: 'the demo gateway\'s time-out' },
      { name: 'apps', kind: 'bool', help: 'run the reference apps gateway instead (needs --config)', defaultText: 'off' },
      { name: 'config', kind: 'string', arg: '<file>', help: 'with --apps: the gateway configuration (public dialect)', defaultText: '' },
      { name: 'data-dir', kind: 'string', arg: '<dir>', help: 'with --apps and no store.postgres_url: keep the PGlite database in this directory', defaultText: 'in memory' },
      { name: 'base-path', kind: 'string', arg: '<path>', help: 'prefix-and-header mode: serve every protocol under this path only (a JSON 404 elsewhere)', defaultText: 'the host root' },
      { name: 'require-header', kind: 'list', arg: '<name=value>', help: 'prefix-and-header mode: answer a JSON 400 to requests without this header (repeatable)', flagDefault: [], defaultText: '' },
    ],
  ),
  ...own(
    ['apps-config'],
    [
      { name: 'dialect', kind: 'string', arg: '<name>', help: 'claude-apps-gateway (the public dialect; the only one written so far)', flagDefault: 'claude-apps-gateway', defaultText: '`claude-apps-gateway`' },
      { name: 'port', kind: 'string', arg: '<n>', help: 'the gateway port (listen.port, public_url)', flagDefault: '48080', defaultText: '48080' },
      { name: 'ports-base', kind: 'string', arg: '<n>', help: 'the IdP listens here, the collector on the next port, the upstreams eng-up, haiku-up, default-up on the three after', flagDefault: '47001', defaultText: '47001' },
      { name: 'postgres-url', kind: 'string', arg: '<url>', help: 'store.postgres_url to write (the real gateway needs one; without it the reference uses PGlite)', defaultText: '' },
      { name: 'out', kind: 'string', arg: '<file>', help: 'write here (and the secrets to the same name with .env) instead of the configuration on standard output, without secrets', defaultText: 'standard output' },
      { name: 'force', kind: 'bool', help: 'write the secrets file even inside a git work tree (where it could be committed by mistake)', defaultText: 'off' },
    ],
  ),
  ...own(
    ['list'],
    [
      { name: 'json', kind: 'bool', help: 'machine-readable output: `{ schemaVersion, checks, coverage }`, `schemaVersion` 1.0.0 (a minor adds fields, a major changes them); with --faults a list of `{ name, breaks, description }`', defaultText: 'off' },
      { name: 'faults', kind: 'bool', help: 'list the reference gateway faults instead (those of the reference apps gateway too, named apps-*)', defaultText: 'off' },
    ],
  ),
  ...own(['keygen'], [{ name: 'out', kind: 'string', arg: '<dir>', required: true, help: 'the folder to write the two files to (required; an existing key there is not overwritten)', defaultText: '' }]),
  ...own(
    ['lint-config'],
    [
      { name: 'dialect', kind: 'enum', values: ['outline', 'claude-apps-gateway'], choices: true, arg: '<name>', help: 'the configuration dialect', defaultText: 'detected from the top-level keys' },
      { name: 'format', kind: 'enum', values: ['text', 'json', 'junit', 'sarif', 'github'], choices: true, arg: '<name>', help: 'output format', flagDefault: 'text', defaultText: '`text`' },
      { name: 'out', kind: 'string', arg: '<file>', help: 'write the report to this file instead of standard output', defaultText: 'standard output' },
      { name: 'strict', kind: 'bool', help: 'warnings (SHOULD rules) fail the run too', defaultText: 'off' },
    ],
  ),
  ...own(
    ['compare'],
    [
      { name: 'format', kind: 'enum', values: ['console', 'json', 'markdown', 'github'], choices: true, arg: '<name>', help: 'output format: `markdown` for a pull-request comment or a job summary, `github` one annotation per regression', flagDefault: 'console', defaultText: '`console`' },
      { name: 'out', kind: 'string', arg: '<file>', help: 'write the comparison to this file instead of standard output (which then gets the one-line result)', defaultText: 'standard output' },
      { name: 'ignore', kind: 'list', arg: '<check-id>', help: 'leave this check out of the comparison (repeatable)', flagDefault: [], defaultText: '' },
      { name: 'ignore-level', kind: 'list', arg: '<level>', help: 'leave the checks of this level out: MUST, SHOULD or INFO (repeatable)', flagDefault: [], defaultText: '' },
      { name: 'fail-on', kind: 'enum', values: ['fail', 'warn'], choices: true, arg: '<outcome>', help: 'what a check that passed must now do to be a regression: `fail`, or `warn` (a SHOULD now broken counts too)', flagDefault: 'fail', defaultText: '`fail`' },
      { name: 'allow-partial', kind: 'bool', help: 'compare a run Ctrl-C interrupted (its unfinished checks count as skipped, never as passes) instead of refusing it', defaultText: 'off' },
    ],
  ),
  ...own(
    ['matrix'],
    [
      { name: 'out', kind: 'string', arg: '<dir>', help: 'where to write matrix.html, matrix.json or matrix.md', flagDefault: '.', defaultText: 'the current folder' },
      { name: 'format', kind: 'enum', values: ['html', 'json', 'markdown'], choices: true, arg: '<name>', help: 'html (self-contained: sortable columns, a filter box), json (src/report/across-runs/matrix.schema.json) or markdown', flagDefault: 'html', defaultText: '`html`' },
      { name: 'label', kind: 'list', arg: '<DIR=NAME@VERSION>', help: "name the gateway of the run in DIR (repeatable); without it, the report's gateway (`run --gateway-name`), else the folder's name", flagDefault: [], defaultText: '' },
    ],
  ),
];

/** The flags of one command, run settings first, in table order (without the environment variables the command does not read). */
export function optionsOf(command: CommandName): OptionSpec[] {
  const runRows = ROWS.filter((o) => o.where !== 'file' && (o.commands ?? RUN_COMMANDS).includes(command));
  const { env, defaults } = COMMANDS[command];
  const read = (o: OptionSpec): OptionSpec => ({ ...o, ...(env && o.env && !env.includes(o.env) ? { env: undefined } : {}), ...(defaults?.[o.name] ? { defaultText: defaults[o.name] } : {}) });
  return [...runRows.map(read), ...COMMAND_OPTIONS.filter((o) => o.commands!.includes(command))];
}

const flagCell = (o: OptionSpec) => (o.where === 'file' ? `\`${o.name}:\` (gwc.yaml only)` : `\`--${o.name}${o.arg ? ` ${o.arg}` : ''}\`${o.negate ? `, \`--no-${o.name}\` (${o.negate})` : ''}`);
const bounds = (o: OptionSpec) => (o.kind === 'int' && o.min !== undefined ? ` (${o.min} to ${o.max})` : o.values ? ` (${o.values.join(', ')})` : '');
const row = (o: OptionSpec) => `| ${flagCell(o)} | ${o.env ? `\`${o.env}\`` : ''} | ${o.help}${bounds(o)} | ${o.defaultText} |`;
const HEAD = ['| flag | environment | meaning | default |', '|---|---|---|---|'];

/** The README's flag table: every run setting. */
export function optionsMarkdown(): string {
  return [...HEAD, ...ROWS.map(row)].join('\n');
}

/** docs/cli.md: every command, its arguments and its flags. */
export function cliReferenceMarkdown(): string {
  const out = [
    '# gw-conformance command line',
    '',
    '<!-- Generated from src/config/options.ts and src/config/commands.ts by `npm run docs:cli`; test/unit/config/options.test.ts fails when they differ. -->',
    '',
    'Flags win over environment variables, which win over `gwc.yaml` (`--config`), which wins over the default. Exit codes: 0 every MUST check passed, 1 a MUST check failed, 2 the harness could not run (one line on standard error says why).',
    '',
    'Where to start: [getting started](getting-started.md); every check and how to fix its failure: [checks reference](checks.md).',
    '',
    '`gw-conformance <command> --help` shows the common flags (targeting, credential, selection, reports) and names the other groups; `--help-all` shows every flag, as this page does.',
  ];
  for (const name of COMMAND_NAMES) {
    const c = COMMANDS[name];
    out.push('', `## ${name}`, '', `\`gw-conformance ${name}${(c.args ?? []).map((a) => ` ${a.name}`).join('')} [flags]\`: ${c.description}.`);
    for (const a of c.args ?? []) out.push('', `- \`${a.name}\`: ${a.help}`);
    const flags = optionsOf(name);
    if (flags.length) out.push('', ...HEAD, ...flags.map(row));
    const examples = c.examples;
    if (examples) out.push('', 'Examples:', '', '```bash', ...examples, '```');
  }
  return `${out.join('\n')}\n`;
}
