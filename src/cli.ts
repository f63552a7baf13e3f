#!/usr/bin/env node
// Wiring only: parse flags, call the command, and set the exit code. Only this file decides
// exit codes (design.md, style rule 6): 0 MUST checks passed, 1 a MUST check failed, 2 the
// harness could not run.
import { Command, CommanderError, Option } from 'commander';
import { HarnessError, parseListen } from './core/errors.js';
import { loadConfigFile, resolveConfig, SERVICE_ENV, withExpandedTargeting, type FlagValues, type RunConfig } from './config/config.js';
import { FLAG_OPTIONS, type OptionSpec } from './config/options.js';
import { RecordingUpstream } from '../mocks/upstream/server.js';
import { BLOCKED_NATIVE_MODEL, ServiceEmulator } from '../mocks/upstream/service.js';
import { Capture, parseDelays } from '../mocks/upstream/capture.js';
import { DEMO_UPSTREAM_TIMEOUT_MS, ReferenceGateway } from '../reference/gateway.js';
import { FAULTS, faultByName } from '../reference/faults/index.js';
import { finishRun, runSuite, sealReport, type SuiteExtras } from './cli/run.js';
import { checkLaunch, launchGateway, parseEnvList, startCommand, workdir, type LaunchedGateway } from './launch/launch.js';
import { freePort } from './launch/ports.js';
import { basePath as parseBasePath } from './config/targeting.js';
import { certify, mergeCommand, verify, type CertifyFlags } from './cli/certify.js';
import { JUNIT_FORMATS } from './config/options.js';
import { controlHandler, isOurMock, runRemote } from './cli/remote.js';
import { listJson, listText } from './cli/list.js';
import { CHECKS } from '../suites/index.js';
import { VERSION } from './core/paths.js';
import type { RunReport } from './report/types.js';
import { LINT_COVERAGE, lintConfig } from './lint/index.js';
// The apps profile (issue 11): its surroundings, the reference apps gateway and its faults.
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join as joinPath } from 'node:path';
import { awaitAppsGateway } from './cli/apps-ready.js';
import { APPS_FAULTS, appsFaultByName } from '../reference/apps/faults.js';

// The apps profile's servers (IdP, collector, PGlite, the OpenTelemetry SDK) are loaded only when
// a command needs them: every other run starts without their weight (peak RSS, start-up time).
const appsModules = async () => {
  const [harness, gateway, config, store] = await Promise.all([import('../mocks/apps/harness.js'), import('../reference/apps/gateway.js'), import('../reference/apps/config.js'), import('../reference/apps/store.js')]);
  return { harness, AppsSurroundings: harness.AppsSurroundings, AppsGateway: gateway.AppsGateway, loadAppsConfig: config.loadAppsConfig, parseAppsConfig: config.parseAppsConfig, openEmbeddedFromTemplate: store.openEmbeddedFromTemplate };
};

export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  env: NodeJS.ProcessEnv;
  /** Resolves when the user asks a long-running command (mock, reference) to stop. */
  untilStopped: () => Promise<void>;
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** The commander option of one row of the option table (src/config/options.ts). */
function commanderOption(o: OptionSpec): Option {
  const flag = o.kind === 'bool' ? `--${o.name}` : `--${o.name} ${o.arg ?? '<value>'}`;
  const help = `${o.help}${o.env ? ` (${o.env})` : ''}${o.defaultText ? `; default ${o.defaultText.replace(/`/g, '')}` : ''}`;
  const opt = new Option(flag, help);
  // Lists and maps repeat; their values are parsed with the rest in resolveOptions.
  if (o.kind === 'list' || o.kind === 'enum-list' || o.kind === 'map') opt.argParser(collect);
  return opt;
}

function runOptions(cmd: Command): Command {
  for (const o of FLAG_OPTIONS) if (o.name !== 'target') cmd.addOption(commanderOption(o));
  return cmd;
}

function config(opts: FlagValues & { config?: string }, io: Io): RunConfig {
  const path = opts.config ?? 'gwc.yaml';
  const file = loadConfigFile(path, opts.config !== undefined);
  return resolveConfig(opts, file, io.env, path);
}

async function cmdRun(opts: FlagValues & { config?: string }, io: Io): Promise<number> {
  const cfg = config(opts, io);
  if (cfg.profile === 'apps') return finishRun(await runAppsOwn(cfg, io), cfg, io, invocation);
  const launching = Boolean(cfg.launch.cmd || cfg.launch.image);
  // Bad launch flags are found before anything starts (src/launch/launch.ts).
  checkLaunch(cfg.launch);
  if (!cfg.target && !launching) throw new HarnessError('BAD_FLAG', '--target is required (or `target:` in gwc.yaml, or --gateway-cmd / --gateway-image to start the gateway); to try the harness without a gateway, run `gw-conformance demo`');
  // The service profile checks a hosted service directly: no recording upstream is started.
  if (cfg.profile === 'service') {
    if (launching) throw new HarnessError('BAD_FLAG', '--gateway-cmd and --gateway-image start a gateway in front of the recording upstream: not with --profile service');
    const report = await runSuite(CHECKS, withExpandedTargeting(cfg, null, io.env), cfg.target!, null, io.out);
    return finishRun(report, cfg, io, invocation);
  }
  // A started gateway gets a free upstream port unless the user chose one.
  const listenGiven = opts.upstreamListen !== undefined || Boolean(io.env.GWC_UPSTREAM_LISTEN);
  const { host, port } = parseListen(launching && !listenGiven ? '127.0.0.1:0' : cfg.upstreamListen, '--upstream-listen');
  const upstream = new RecordingUpstream();
  let report: RunReport;
  try {
    await upstream.start(host, port);
  } catch (e) {
    // A `gw-conformance mock` already holding the port runs the suite for us.
    const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    if (e instanceof HarnessError && e.code === 'PORT_IN_USE' && !launching && (await isOurMock(base))) {
      // The mock-driven run (src/cli/remote.ts) does not know issue 12's run options yet: refuse rather than ignore them.
      if (cfg.waivers || cfg.shard || cfg.repeat > 1 || cfg.repeatFailures > 1) throw new HarnessError('BAD_FLAG', '--waivers, --shard, --repeat and --repeat-failures are not supported when a running `gw-conformance mock` drives the run; stop the mock and let `run` start its own upstream');
      io.out(`using the recording upstream of the running \`gw-conformance mock\` at ${base}`);
      report = await runRemote(base, withExpandedTargeting(cfg, base, io.env), cfg.target!, io.out);
      return finishRun(report, cfg, io, invocation);
    }
    throw e;
  }
  const run = withExpandedTargeting(cfg, upstream.url, io.env);
  const secrets = [cfg.token, ...(run.expanded?.secrets ?? [])];
  let launched: LaunchedGateway | undefined;
  try {
    if (launching) {
      launched = await launchGateway({ ...cfg.launch, upstreamUrl: upstream.url, upstreamPort: Number(new URL(upstream.url).port), startTimeoutMs: cfg.readyTimeoutS * 1000, secrets });
      io.out(`started the gateway (${cfg.launch.cmd ? '--gateway-cmd' : `--gateway-image ${cfg.launch.image}`}) at ${launched.target}, forwarding to ${upstream.url}`);
    }
    report = await runSuite(CHECKS, run, launched?.target ?? cfg.target!, upstream, io.out, { launcher: launched });
  } finally {
    await launched?.stop();
    await upstream.stop();
  }
  // What the started gateway wrote goes into the report, masked like the rest.
  if (launched) report = sealReport({ ...report, launched: launched.info() }, secrets, run.expanded?.names ?? []);
  return finishRun(report, cfg, io, invocation);
}

async function cmdDemo(opts: FlagValues & { config?: string; fault?: string }, io: Io): Promise<number> {
  const cfg = config(opts, io);
  if (cfg.launch.cmd || cfg.launch.image) throw new HarnessError('BAD_FLAG', `demo runs the built-in reference gateway: ${cfg.launch.cmd ? '--gateway-cmd' : '--gateway-image'} goes with \`run\``);
  if (cfg.profile === 'apps') return finishRun(await runAppsDemo(cfg, opts.fault, io.out), cfg, io, invocation);
  const fault = opts.fault === undefined ? undefined : faultByName(opts.fault);
  if (opts.fault !== undefined && !fault) throw new HarnessError('UNKNOWN_FAULT', `unknown fault "${opts.fault}" (known: ${FAULTS.map((f) => f.name).join(', ')})`);
  if (cfg.profile === 'service') throw new HarnessError('BAD_FLAG', 'the service profile checks a hosted service: run `gw-conformance run --profile service --target <service URL>` (try it locally against `gw-conformance mock --service`)');
  const upstream = new RecordingUpstream();
  const { host, port } = parseListen((opts.upstreamListen as string | undefined) ?? '127.0.0.1:0', '--upstream-listen');
  await upstream.start(host, port);
  const gw = new ReferenceGateway({ upstream: upstream.url, fault, upstreamTimeoutMs: DEMO_UPSTREAM_TIMEOUT_MS });
  try {
    const target = await gw.start('127.0.0.1', 0);
    io.out(`demo: reference gateway at ${target}${fault ? ` with fault ${fault.name} (${fault.description})` : ' (no fault)'}`);
    const report = await runSuite(CHECKS, withExpandedTargeting(cfg, upstream.url, io.env), target, upstream, io.out);
    return finishRun(report, cfg, io, invocation);
  } finally {
    await gw.stop();
    await upstream.stop();
  }
}

async function cmdMock(opts: { listen: string; service?: boolean; capture?: string; captureDelay: string[] }, io: Io): Promise<number> {
  const { host, port } = parseListen(opts.listen, '--listen');
  if (opts.service) return mockService(host, port, io);
  const upstream = new RecordingUpstream();
  if (opts.captureDelay.length && !opts.capture) throw new HarnessError('BAD_FLAG', '--capture-delay needs --capture');
  if (opts.capture) upstream.capture = Capture.open({ file: opts.capture, delays: parseDelays(opts.captureDelay) });
  upstream.control = controlHandler(upstream, CHECKS, (s) => io.out(`mock: ${s}`));
  upstream.onUnmatched = (u) => io.out(`mock: unmatched ${u.method} ${u.url}: ${u.reason}`);
  await upstream.start(host, port);
  io.out(`recording upstream listening on ${upstream.url}`);
  if (opts.capture) io.out(`capture mode: requests with no case token are answered as the real API would; every request is appended to ${opts.capture}`);
  io.out(`configure the gateway to forward to ${upstream.url}, then run: gw-conformance --target <gateway URL> --upstream-listen ${opts.listen}`);
  await io.untilStopped();
  await upstream.stop();
  return 0;
}

/** `mock --service`: the service emulator, standing in for the hosted service of the service profile. */
async function mockService(host: string, port: number, io: Io): Promise<number> {
  const key = serviceConfigKey(io.env);
  const service = new ServiceEmulator({ key });
  const url = await service.start(host, port);
  io.out(`service emulator listening on ${url}: the three protocols under the key in ${SERVICE_ENV.key}; native model ${BLOCKED_NATIVE_MODEL} always answers blocked (SAFETY)`);
  io.out(`run: gw-conformance run --profile service --target ${url} (with ${Object.values(SERVICE_ENV).join(', ')} set)`);
  await io.untilStopped();
  await service.stop();
  return 0;
}

function serviceConfigKey(env: NodeJS.ProcessEnv): string {
  const key = env[SERVICE_ENV.key]?.trim();
  if (!key) throw new HarnessError('BAD_CONFIG', `mock --service needs ${SERVICE_ENV.key} in the environment: the one key the emulator accepts`);
  return key;
}

async function cmdReference(opts: { listen: string; upstream: string; fault?: string; upstreamTimeoutMs: string; basePath?: string; requireHeader: string[]; apps?: boolean; config?: string; dataDir?: string }, io: Io): Promise<number> {
  if (opts.apps) {
    if (!opts.config) throw new HarnessError('BAD_FLAG', 'reference --apps needs --config <gateway.yaml>');
    const fault = opts.fault === undefined ? undefined : appsFaultByName(opts.fault);
    if (opts.fault !== undefined && !fault) throw new HarnessError('UNKNOWN_FAULT', `unknown apps fault "${opts.fault}" (known: ${APPS_FAULTS.map((f) => f.name).join(', ')})`);
    const { loadAppsConfig, AppsGateway } = await appsModules();
    const cfg = loadAppsConfig(opts.config, io.env);
    const gw = new AppsGateway(cfg, { fault, dataDir: opts.dataDir, log: (l) => io.out(l) });
    const url = await gw.start();
    io.out(`reference apps gateway listening on ${url} (store: ${cfg.store.postgresUrl ? 'PostgreSQL' : opts.dataDir ? `PGlite in ${opts.dataDir}` : 'PGlite in memory'})${fault ? `, fault ${fault.name}` : ''}`);
    await io.untilStopped();
    await gw.stop();
    return 0;
  }
  const fault = opts.fault === undefined ? undefined : faultByName(opts.fault);
  if (opts.fault !== undefined && !fault) throw new HarnessError('UNKNOWN_FAULT', `unknown fault "${opts.fault}" (known: ${FAULTS.map((f) => f.name).join(', ')})`);
  if (!/^https?:\/\//.test(opts.upstream)) throw new HarnessError('BAD_FLAG', `--upstream: expected an http:// URL, got "${opts.upstream}"`);
  const { host, port } = parseListen(opts.listen, '--listen');
  if (!/^\d+$/.test(opts.upstreamTimeoutMs)) throw new HarnessError('BAD_FLAG', `--upstream-timeout-ms: expected a whole number, got "${opts.upstreamTimeoutMs}"`);
  const base = opts.basePath === undefined ? undefined : parseBasePath(opts.basePath, '--base-path');
  const requireHeaders = opts.requireHeader.map((h): [string, string] => {
    const eq = h.indexOf('=');
    if (eq <= 0) throw new HarnessError('BAD_FLAG', `--require-header: expected NAME=VALUE, got "${h}"`);
    return [h.slice(0, eq).trim().toLowerCase(), h.slice(eq + 1)];
  });
  const gw = new ReferenceGateway({ upstream: opts.upstream, fault, upstreamTimeoutMs: Number(opts.upstreamTimeoutMs), basePath: base, requireHeaders });
  const url = await gw.start(host, port);
  const mode = [base ? `serving under ${base}/` : '', requireHeaders.length ? `requiring ${requireHeaders.map(([k]) => k).join(', ')}` : ''].filter(Boolean).join(', ');
  io.out(`reference gateway listening on ${url}, forwarding to ${opts.upstream}${fault ? `, fault ${fault.name}` : ''}${mode ? `, ${mode}` : ''}`);
  await io.untilStopped();
  await gw.stop();
  return 0;
}

/**
 * certify and verify: the suite with the run's own recording upstream (a transcript needs it),
 * against cfg.target or a gateway the harness starts (--gateway-cmd, --gateway-image).
 */
async function withOwnUpstream(cfg: RunConfig, io: Io, extras: SuiteExtras): Promise<RunReport> {
  const launching = Boolean(cfg.launch.cmd || cfg.launch.image);
  checkLaunch(cfg.launch);
  if (!cfg.target && !launching) throw new HarnessError('BAD_FLAG', '--target is required (or --gateway-cmd / --gateway-image to start the gateway)');
  if (cfg.profile === 'service') return runSuite(CHECKS, withExpandedTargeting(cfg, null, io.env), cfg.target!, null, io.out, extras);
  // A started gateway gets a free upstream port unless the user chose one.
  const { host, port } = parseListen(launching && !io.env.GWC_UPSTREAM_LISTEN && cfg.upstreamListen === '127.0.0.1:18080' ? '127.0.0.1:0' : cfg.upstreamListen, '--upstream-listen');
  const upstream = new RecordingUpstream();
  await upstream.start(host, port);
  const run = withExpandedTargeting(cfg, upstream.url, io.env);
  let launched: LaunchedGateway | undefined;
  try {
    if (launching) {
      const secrets = [cfg.token, ...(run.expanded?.secrets ?? [])];
      launched = await launchGateway({ ...cfg.launch, upstreamUrl: upstream.url, upstreamPort: Number(new URL(upstream.url).port), startTimeoutMs: cfg.readyTimeoutS * 1000, secrets });
      io.out(`started the gateway (${cfg.launch.cmd ? '--gateway-cmd' : `--gateway-image ${cfg.launch.image}`}) at ${launched.target}, forwarding to ${upstream.url}`);
    }
    return await runSuite(CHECKS, run, launched?.target ?? cfg.target!, upstream, io.out, { ...extras, launcher: launched });
  } finally {
    await launched?.stop();
    await upstream.stop();
  }
}


/**
 * The apps profile against the reference apps gateway on PGlite (in memory, opened by the harness
 * and kept open across a restart of the gateway): starts the IdP, the collector and the upstreams, writes the
 * configuration, runs the apps checks and stops everything.
 */
export async function runAppsDemo(cfg: RunConfig, faultName: string | undefined, print: (s: string) => void, store: { postgresUrl?: string } = {}): Promise<RunReport> {
  const fault = faultName === undefined ? undefined : appsFaultByName(faultName);
  if (faultName !== undefined && !fault) throw new HarnessError('UNKNOWN_FAULT', `unknown apps fault "${faultName}" (known: ${APPS_FAULTS.map((f) => f.name).join(', ')})`);
  const { AppsSurroundings, AppsGateway, parseAppsConfig, openEmbeddedFromTemplate, harness } = await appsModules();
  const around = new AppsSurroundings();
  await around.start();
  // The database outlives the gateway, as a PostgreSQL server would: a restart reconnects to it.
  // With a PostgreSQL URL the gateway connects to that server itself (a restart reconnects).
  const db = store.postgresUrl ? undefined : await openEmbeddedFromTemplate();
  let gw: InstanceType<typeof AppsGateway> | undefined;
  try {
    const boot = async (port: number) => {
      const parsed = parseAppsConfig(around.config({ port, postgresUrl: store.postgresUrl }), around.env);
      const g = new AppsGateway(parsed, { fault, db });
      await g.start('127.0.0.1', port);
      return g;
    };
    // A free loopback port first, so the configuration's public_url names the port the gateway gets.
    const port = await freePort();
    gw = await boot(port);
    const fixture = {
      gatewayUrl: gw.url,
      publicUrl: harness.publicUrlOf(port),
      jwtSecret: around.jwtSecret,
      adminKey: around.adminKey,
      idp: around.idp,
      collector: around.collector,
      upstreams: around.upstreams,
      restart: async () => {
        await gw!.stop();
        gw = await boot(port);
      },
    };
    return await runSuite(CHECKS, cfg, gw.url, null, print, { fixture, secrets: [around.jwtSecret, around.adminKey, around.clientSecret, around.upstreamKey] });
  } finally {
    await gw?.stop();
    await db?.close();
    await around.stop();
  }
}

/** The secrets file apps-config writes beside the configuration: gateway.yaml -> gateway.env. */
export const appsEnvFileOf = (configFile: string) => `${configFile.replace(/\.ya?ml$/i, '')}.env`;

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new HarnessError('BAD_CONFIG', `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/**
 * The apps profile against a gateway of the user's own: `--target` (+ `--apps-config`, the
 * configuration apps-config wrote, which the user started the gateway with) or `--gateway-cmd`
 * (the harness writes `{workdir}/gateway.yaml`, starts the gateway and may restart it). The
 * IdP, the collector and the upstreams start first, then the gateway must answer its metadata
 * document within --ready-timeout-s; then the apps checks run.
 */
async function runAppsOwn(cfg: RunConfig, io: Io): Promise<RunReport> {
  const cmd = cfg.launch.cmd;
  if (cfg.launch.image) throw new HarnessError('BAD_FLAG', '--gateway-image is not supported with --profile apps yet: use --gateway-cmd (or --target with --apps-config)');
  if (cmd && cfg.apps.config) throw new HarnessError('BAD_FLAG', 'give --apps-config (with --target: a gateway you started) or --gateway-cmd (the harness writes {workdir}/gateway.yaml), not both');
  if (!cmd && !cfg.apps.config)
    throw new HarnessError('BAD_FLAG', '--profile apps needs --gateway-cmd, or --target with --apps-config <gateway.yaml> (written by `gw-conformance apps-config --out gateway.yaml`); without a gateway: `gw-conformance demo --profile apps`');
  if (!cmd && cfg.apps.postgresUrl) throw new HarnessError('BAD_FLAG', '--apps-postgres-url goes with --gateway-cmd (with --apps-config the store is in the configuration you wrote)');
  checkLaunch(cfg.launch);
  const { harness } = await appsModules();
  let around: InstanceType<typeof harness.AppsSurroundings>;
  let target: string;
  let publicUrl: string;
  let launched: LaunchedGateway | undefined;
  let dir: string | undefined;
  if (!cmd) {
    const file = cfg.apps.config!;
    const text = readText(file);
    const envFile = appsEnvFileOf(file);
    const { secrets } = harness.parseEnvFile(readText(envFile), envFile);
    const addresses = harness.addressesOf(text, file);
    publicUrl = addresses.publicUrl;
    target = cfg.target ?? publicUrl;
    const ports = addresses.ports;
    around = new harness.AppsSurroundings({ secrets, ports });
    await around.start();
  } else {
    around = new harness.AppsSurroundings();
    await around.start();
  }
  const secrets = [cfg.token, ...around.secrets];
  let report: RunReport;
  try {
    if (cmd) {
      const listenPort = await freePort();
      publicUrl = harness.publicUrlOf(listenPort);
      dir = await workdir();
      writeFileSync(joinPath(dir, 'gateway.yaml'), around.config({ port: listenPort, postgresUrl: cfg.apps.postgresUrl ?? undefined }), { mode: 0o600 });
      const upstream = around.upstreams.get('default-up')!.url;
      const env: Array<[string, string]> = [...Object.entries({ ...around.env, ...harness.LOOPBACK_ENV }), ...parseEnvList(cfg.launch.env)];
      launched = await startCommand({ command: cmd, env, values: { upstream_url: upstream, upstream_port: new URL(upstream).port, listen_port: String(listenPort), workdir: dir }, listenPort, startTimeoutMs: cfg.readyTimeoutS * 1000, secrets });
      target = launched.target;
      io.out(`started the gateway (--gateway-cmd) at ${target} with ${dir}/gateway.yaml`);
    }
    for (const l of around.describe()) io.out(`apps: ${l}`);
    io.out(`apps: waiting for the gateway at ${target!} (up to ${cfg.readyTimeoutS} s)`);
    await awaitAppsGateway(target!, cfg.readyTimeoutS * 1000);
    const l = launched;
    const fixture = { gatewayUrl: target!, publicUrl: publicUrl!, jwtSecret: around.jwtSecret, adminKey: around.adminKey, idp: around.idp, collector: around.collector, upstreams: around.upstreams, ...(l ? { restart: async () => (await l.restart(), await awaitAppsGateway(target!, cfg.readyTimeoutS * 1000)) } : {}) };
    report = await runSuite(CHECKS, cfg, target!, null, io.out, { fixture, secrets: around.secrets, launcher: launched });
  } finally {
    await launched?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
    await around.stop();
  }
  if (launched) report = sealReport({ ...report, launched: launched.info() }, secrets, []);
  return report;
}

/** The arguments of the running command, for the replay command of each failed check. */
let invocation: string[] = [];

export async function main(argv: string[], io: Io): Promise<number> {
  invocation = argv;
  let code = 0;
  const program = new Command()
    .name('gw-conformance')
    .description('Conformance test harness for LLM API gateways')
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });

  runOptions(program.command('run', { isDefault: true }).description('run the suite against a gateway (default command)').addOption(commanderOption(FLAG_OPTIONS.find((o) => o.name === 'target')!))).action(
    async (o) => void (code = await cmdRun(o, io)),
  );
  runOptions(program.command('demo').description('run the suite against the built-in reference gateway').addOption(new Option('--fault <name>', 'break one requirement on purpose').choices([...FAULTS, ...APPS_FAULTS].map((f) => f.name)))).action(
    async (o) => void (code = await cmdDemo(o, io)),
  );
  // Issue 12: the vendor conformance report, its verification, and merged shard reports.
  runOptions(
    program
      .command('certify')
      .description('run the profile and write a conformance report folder (conformance-report.yaml, report.json, junit.xml, report.html, transcript, README)')
      .addOption(commanderOption(FLAG_OPTIONS.find((o) => o.name === 'target')!))
      .option('--implementation-name <name>', 'the gateway product under test (required)')
      .option('--implementation-version <version>', 'its version (required)')
      .option('--organization <org>', 'who makes it')
      .option('--url <url>', 'its home page')
      .option('--contact <email>', 'who to ask about this report'),
  ).action(async (o: FlagValues & CertifyFlags & { config?: string }) => void (code = await certify(config(o, io), o, io, (cfg, extras) => withOwnUpstream(cfg, io, extras), invocation)));
  program
    .command('verify')
    .description('re-run a certify folder with its recorded seed and settings; exit 0 reproduced, 1 not, 2 could not run')
    .argument('<dir>', 'the folder certify wrote')
    .option('--target <url>', 'the gateway (default: the recorded target)')
    .option('--upstream-listen <host:port>', 'the recording upstream (default: the recorded address)')
    .option('--token <token>', 'credential sent to the gateway (GWC_TOKEN)')
    .option('--gateway-cmd <command>', 'start the gateway with this shell command instead of --target (placeholders {upstream_url}, {upstream_port}, {listen_port}, {workdir})')
    .option('--gateway-env <K=V>', 'an environment variable of the started gateway (repeatable)', collect, [])
    .action(
      async (dir: string, o: { target?: string; upstreamListen?: string; token?: string; gatewayCmd?: string; gatewayEnv?: string[] }) =>
        void (code = await verify(dir, o, io, (cfg, extras) => withOwnUpstream(cfg, io, extras))),
    );
  program
    .command('merge-reports')
    .description('merge the JSON reports of shards (folders holding report.json) into one report, written by every reporter')
    .argument('<dir...>', 'report folders (or report.json files)')
    .requiredOption('--out <dir>', 'where to write the merged reports')
    .option('--force', 'merge runs of different harness versions, seeds, targets, profiles or declared features anyway')
    .option('--reporter <name>', 'report formats (repeatable; default all)', collect, [])
    .addOption(new Option('--junit-format <name>', 'JUnit dialect').choices([...JUNIT_FORMATS]).default('jenkins'))
    .action(async (dirs: string[], o: { out: string; force?: boolean; reporter: string[]; junitFormat: (typeof JUNIT_FORMATS)[number] }) => void (code = await mergeCommand(dirs, o, CHECKS.map((c) => c.id), io)));
  program
    .command('mock')
    .description('run only the recording upstream, so the gateway can be configured before the run')
    .option('--listen <host:port>', 'address to listen on (loopback by default)', '127.0.0.1:18080')
    .option('--service', 'stand in for the hosted service instead (for `run --profile service`): realistic answers on the three protocols under the key in GWC_SERVICE_KEY')
    .option('--capture <file>', 'answer requests with no case token as the real API would, and append every request (credentials masked) to this JSON-lines file')
    .option('--capture-delay <path=ms>', 'with --capture: answer requests to PATH this many ms late, e.g. /v1/models=10000 (repeatable)', collect, [])
    .action(async (o) => void (code = await cmdMock(o, io)));
  program
    .command('reference')
    .description('run the reference gateway on its own')
    .option('--listen <host:port>', 'address to listen on', '127.0.0.1:8080')
    .option('--upstream <url>', 'where to forward', 'http://127.0.0.1:18080')
    .option('--upstream-timeout-ms <ms>', 'how long to wait for the upstream\'s response headers before a JSON 504', String(DEMO_UPSTREAM_TIMEOUT_MS))
    .addOption(new Option('--fault <name>', 'break one requirement on purpose').choices([...FAULTS, ...APPS_FAULTS].map((f) => f.name)))
    .option('--apps', 'run the reference apps gateway instead (needs --config)')
    .option('--config <file>', 'with --apps: the gateway configuration (public dialect)')
    .option('--data-dir <dir>', 'with --apps and no store.postgres_url: keep the PGlite database in this directory')
    .option('--base-path <path>', 'prefix-and-header mode: serve every protocol under this path only (a JSON 404 elsewhere)')
    .option('--require-header <name=value>', 'prefix-and-header mode: answer a JSON 400 to requests without this header (repeatable)', collect, [])
    .action(async (o) => void (code = await cmdReference(o, io)));
  program
    .command('apps-config')
    .description('write a gateway configuration (public dialect) for the apps profile, and its secrets beside it (FILE.env, mode 0600); the IdP, collector and upstreams are the loopback addresses `run --profile apps --apps-config FILE` will listen on')
    .option('--dialect <name>', 'claude-apps-gateway (the public dialect; the only one written so far)', 'claude-apps-gateway')
    .option('--port <n>', 'the gateway port (listen.port, public_url)', '48080')
    .option('--ports-base <n>', 'the IdP listens here, the collector on the next port, the upstreams eng-up, haiku-up, default-up on the three after', '47001')
    .option('--postgres-url <url>', 'store.postgres_url to write (the real gateway needs one; without it the reference uses PGlite)')
    .option('--out <file>', 'write here (and the secrets to the same name with .env) instead of the configuration on standard output, without secrets')
    .action(async (o: { dialect: string; port: string; portsBase: string; out?: string; postgresUrl?: string }) => {
      if (o.dialect !== 'claude-apps-gateway') throw new HarnessError('BAD_FLAG', `--dialect: only claude-apps-gateway is written so far, got "${o.dialect}"`);
      const port = (v: string, flag: string, room = 0) => {
        if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) + room > 65535) throw new HarnessError('BAD_FLAG', `${flag}: expected a port number${room ? ` up to ${65535 - room}` : ''}, got "${v}"`);
        return Number(v);
      };
      const gatewayPort = port(o.port, '--port');
      const base = port(o.portsBase, '--ports-base', 4);
      if (gatewayPort >= base && gatewayPort <= base + 4) throw new HarnessError('BAD_FLAG', `--port ${gatewayPort} is one of the harness's ports (${base}-${base + 4}, from --ports-base)`);
      if (o.postgresUrl !== undefined && !/^postgres(ql)?:\/\//.test(o.postgresUrl)) throw new HarnessError('BAD_FLAG', `--postgres-url: expected a postgres:// URL, got "${o.postgresUrl}"`);
      const { harness } = await appsModules();
      const around = new harness.AppsSurroundings({ ports: harness.portsFromBase(base) });
      const text = around.config({ port: gatewayPort, postgresUrl: o.postgresUrl });
      for (const l of around.describe()) io.err(`apps-config: ${l}`);
      if (!o.out) {
        io.out(text.trimEnd());
        io.err('apps-config: no --out: the secrets were not written (with --out FILE they go to FILE.env, which `run --profile apps --apps-config FILE` reads)');
        return;
      }
      const envFile = appsEnvFileOf(o.out);
      writeFileSync(o.out, text);
      writeFileSync(envFile, harness.envFileText(around), { mode: 0o600 });
      chmodSync(envFile, 0o600);
      io.err(`apps-config: wrote ${o.out} and its secrets ${envFile} (mode 0600; ${[...Object.values(harness.SECRET_ENV), ...Object.keys(harness.LOOPBACK_ENV)].join(', ')}: the gateway's environment)`);
      io.err(`apps-config: start the gateway with both, then: gw-conformance run --profile apps --apps-config ${o.out} --target http://127.0.0.1:${gatewayPort}`);
    });
  program
    .command('list')
    .description('list every check and the coverage of the requirement catalog')
    .option('--json', 'machine-readable output')
    .option('--faults', 'list the reference gateway faults instead (those of the reference apps gateway too, named apps-*)')
    .action((o: { json?: boolean; faults?: boolean }) => {
      if (o.faults) io.out(o.json ? JSON.stringify([...FAULTS, ...APPS_FAULTS].map(({ name, breaks, description }) => ({ name, breaks, description })), null, 2) : [...FAULTS, ...APPS_FAULTS].map((f) => `${f.name.padEnd(26)} ${f.breaks.join(',').padEnd(24)} ${f.description}`).join('\n'));
      else io.out(o.json ? JSON.stringify(listJson(CHECKS, LINT_COVERAGE), null, 2) : listText(CHECKS, LINT_COVERAGE));
    });

  // lint-config: the apps gateway configuration linter (src/lint/).
  program
    .command('lint-config')
    .description('lint apps gateway configuration files (CFG-* rules); - reads standard input')
    .argument('<file...>', 'gateway.yaml files, or - for standard input')
    .addOption(new Option('--dialect <name>', 'outline | claude-apps-gateway (default: detected from the top-level keys)').choices(['outline', 'claude-apps-gateway']))
    .addOption(new Option('--format <name>', 'output format').choices(['text', 'json', 'junit', 'sarif', 'github']).default('text'))
    .option('--out <file>', 'write the report to this file instead of standard output')
    .option('--strict', 'warnings (SHOULD rules) fail the run too')
    .action(async (files: string[], o: { dialect?: string; format?: string; out?: string; strict?: boolean }) => void (code = await lintConfig(files, o, io)));

  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
      return 2; // commander already printed its one-line reason
    }
    if (e instanceof HarnessError) {
      io.err(`gw-conformance: ${e.message}`);
      return 2;
    }
    io.err(`gw-conformance: internal error: ${(e as Error).stack ?? String(e)}`);
    return 2;
  }
}
