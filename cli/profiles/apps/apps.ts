// The apps profile: its surroundings (IdP, collector, upstreams) and a gateway, set up one of
// three ways (the reference apps gateway for `demo`; a gateway the user started, `--target` with
// `--apps-config`; or one the harness starts, `--gateway-cmd`), then the apps checks. Each set-up
// gives the same thing: where the gateway is, the checks' fixture, and how to tear it all down.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../../../src/core/errors.js';
import { requireOptional } from '../../../src/core/optional.js';
import type { RunConfig } from '../../../src/config/config.js';
import { CHECKS } from '../../../suites/index.js';
import { APPS_FAULTS } from '../../../reference/apps/faults.js';
import { checkLaunch, parseEnvList, startCommand, workdir, type LaunchedGateway } from '../../../src/launch/launch.js';
import { exitOnSignal } from '../../shared/interrupt.js';
import { freePort } from '../../../src/launch/ports.js';
import type { GatewayContract, RunReport } from '../../../src/report/shared/types.js';
import { awaitAppsGateway, fetchContract } from './apps-ready.js';
import { runSuite, sealReport } from '../../../src/runner/run.js';
import { faultNamed, type Io } from '../../shared/context.js';
// What the apps checks get (ctx.fixture): their own view of it, so a field the checks need and a
// set-up forgets is a compile error.
import type { AppsFixture } from '../../../suites/apps/fixture.js';
import type { Db } from '../../../reference/apps/store.js';

// The apps profile's servers (IdP, collector, PGlite, the OpenTelemetry SDK) are loaded only when
// a command needs them: every other run starts without their weight (peak RSS, start-up time),
// and without their packages, which are optional (a missing one is named before anything starts).
export const appsModules = async () => {
  requireOptional('apps');
  const [harness, gateway, config, store] = await Promise.all([import('../../../mocks/apps/harness.js'), import('../../../reference/apps/gateway.js'), import('../../../reference/apps/config.js'), import('../../../reference/apps/store.js')]);
  return { harness, AppsGateway: gateway.AppsGateway, loadAppsConfig: config.loadAppsConfig, parseAppsConfig: config.parseAppsConfig, openEmbeddedFromTemplate: store.openEmbeddedFromTemplate };
};

type Surroundings = InstanceType<Awaited<ReturnType<typeof appsModules>>['harness']['AppsSurroundings']>;


/** An apps gateway ready for the checks. */
export interface AppsSetUp {
  target: string;
  fixture: AppsFixture;
  /** Values no report may carry. */
  secrets: string[];
  /** The gateway the harness started (--gateway-cmd); its output goes into the report. */
  launched?: LaunchedGateway;
  teardown: () => Promise<void>;
}

const fixtureOf = (around: Surroundings, gatewayUrl: string, publicUrl: string, restart?: () => Promise<void>): AppsFixture => ({
  gatewayUrl,
  publicUrl,
  jwtSecret: around.jwtSecret,
  adminKey: around.adminKey,
  idp: around.idp,
  collector: around.collector,
  upstreams: around.upstreams,
  ...(restart ? { restart } : {}),
});

/** Runs the apps checks on a set-up and tears it down, whatever happens. */
export async function runApps(cfg: RunConfig, setUp: AppsSetUp, print: (s: string) => void): Promise<RunReport> {
  let report: RunReport;
  let contract: GatewayContract;
  try {
    contract = await fetchContract(setUp.target);
    print(contract.status === 200 ? `apps: the gateway serves its contract at ${contract.path} (${contract.digest}${contract.digest === contract.expectedDigest ? ', the one the catalog was written against' : ''})` : `apps: the gateway serves no contract at ${contract.path} (${contract.status || 'no answer'})`);
    report = await runSuite(CHECKS, cfg, setUp.target, null, print, { fixture: setUp.fixture, secrets: setUp.secrets, launcher: setUp.launched });
  } finally {
    await setUp.teardown();
  }
  return sealReport({ ...report, gatewayContract: contract, ...(setUp.launched ? { launched: setUp.launched.info() } : {}) }, [cfg.token, ...setUp.secrets], []);
}

/** Where the reference's run finds its store and surroundings (the demo: none given). */
export interface AppsDemoOptions {
  /** The PostgreSQL server to store in, instead of PGlite. */
  postgresUrl?: string;
  /**
   * The run's surroundings, not started (they are started and stopped with the run): e.g. ones
   * on servers that runs going on at once share (SharedServers). Default: servers of its own.
   */
  around?: Surroundings;
  /**
   * Opens the run's PGlite database, migrated and empty (closing it ends the run's use of it):
   * e.g. one a pool hands from run to run. Default: a new one from the template.
   */
  openDb?: () => Promise<Db>;
}

/**
 * The apps profile against the reference apps gateway on PGlite (in memory, opened by the harness
 * and kept open across a restart of the gateway), or on the PostgreSQL server at `opts.postgresUrl`.
 */
export async function runAppsDemo(cfg: RunConfig, faultName: string | undefined, print: (s: string) => void, opts: AppsDemoOptions = {}): Promise<RunReport> {
  return runApps(cfg, await referenceSetUp(faultName, opts), print);
}

async function referenceSetUp(faultName: string | undefined, store: AppsDemoOptions): Promise<AppsSetUp> {
  const fault = faultNamed(faultName, APPS_FAULTS, 'apps fault');
  const { harness, AppsGateway, parseAppsConfig, openEmbeddedFromTemplate } = await appsModules();
  const around = store.around ?? new harness.AppsSurroundings();
  await around.start();
  let gw: InstanceType<typeof AppsGateway> | undefined;
  let db: Awaited<ReturnType<typeof openEmbeddedFromTemplate>> | undefined;
  const teardown = async () => {
    await gw?.stop();
    await db?.close();
    await around.stop();
  };
  try {
    // The database outlives the gateway, as a PostgreSQL server would: a restart reconnects to it.
    db = store.postgresUrl ? undefined : await (store.openDb ?? openEmbeddedFromTemplate)();
    const boot = async (port: number) => {
      const g = new AppsGateway(parseAppsConfig(around.config({ port, postgresUrl: store.postgresUrl }), around.env), { fault, db });
      await g.start('127.0.0.1', port);
      return g;
    };
    // A free loopback port first, so the configuration's public_url names the port the gateway gets.
    const port = await freePort();
    gw = await boot(port);
    const restart = async () => {
      await gw!.stop();
      gw = await boot(port);
    };
    return { target: gw.url, fixture: fixtureOf(around, gw.url, harness.publicUrlOf(port), restart), secrets: around.secrets, teardown };
  } catch (e) {
    await teardown();
    throw e;
  }
}

/**
 * The apps profile against a gateway of the user's own: `--target` (+ `--apps-config`, the
 * configuration apps-config wrote, which the user started the gateway with) or `--gateway-cmd`
 * (the harness writes `{workdir}/gateway.yaml`, starts the gateway and may restart it). The
 * IdP, the collector and the upstreams start first, then the gateway must answer its metadata
 * document within --ready-timeout-s.
 */
export async function ownSetUp(cfg: RunConfig, io: Io): Promise<AppsSetUp> {
  const cmd = cfg.launch.cmd;
  if (cfg.launch.image) throw new HarnessError('BAD_FLAG', '--gateway-image is not supported with --profile apps yet: use --gateway-cmd (or --target with --apps-config)');
  if (cmd && cfg.apps.config) throw new HarnessError('BAD_FLAG', 'give --apps-config (with --target: a gateway you started) or --gateway-cmd (the harness writes {workdir}/gateway.yaml), not both');
  if (!cmd && !cfg.apps.config)
    throw new HarnessError('BAD_FLAG', '--profile apps needs --gateway-cmd, or --target with --apps-config <gateway.yaml> (written by `gw-conformance apps-config --out gateway.yaml`); without a gateway: `gw-conformance demo --profile apps`');
  if (!cmd && cfg.apps.postgresUrl) throw new HarnessError('BAD_FLAG', '--apps-postgres-url goes with --gateway-cmd (with --apps-config the store is in the configuration you wrote)');
  checkLaunch(cfg.launch);
  const { harness } = await appsModules();
  let target = cfg.target;
  let publicUrl: string | undefined;
  let around: Surroundings;
  if (cmd) around = new harness.AppsSurroundings();
  else {
    const file = cfg.apps.config!;
    const text = readText(file);
    const envFile = appsEnvFileOf(file);
    const addresses = harness.addressesOf(text, file);
    publicUrl = addresses.publicUrl;
    around = new harness.AppsSurroundings({ secrets: harness.parseEnvFile(readText(envFile), envFile).secrets, ports: addresses.ports });
    target ??= publicUrl;
  }
  await around.start();
  let launched: LaunchedGateway | undefined;
  let dir: string | undefined;
  const teardown = async () => {
    await launched?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
    await around.stop();
  };
  try {
    if (cmd) {
      const listenPort = await freePort();
      publicUrl = harness.publicUrlOf(listenPort);
      dir = await workdir();
      writeFileSync(join(dir, 'gateway.yaml'), around.config({ port: listenPort, postgresUrl: cfg.apps.postgresUrl ?? undefined }), { mode: 0o600 });
      const upstream = around.upstreams.get('default-up')!.url;
      const env: Array<[string, string]> = [...Object.entries({ ...around.env, ...harness.LOOPBACK_ENV }), ...parseEnvList(cfg.launch.env)];
      const values = { upstream_url: upstream, upstream_port: new URL(upstream).port, listen_port: String(listenPort), workdir: dir, upstream_ca: '' };
      launched = await startCommand({ command: cmd, env, values, listenPort, startTimeoutMs: cfg.readyTimeoutS * 1000, secrets: [cfg.token, ...around.secrets], processEnv: io.env, onSignal: exitOnSignal });
      target = launched.target;
      io.out(`started the gateway (--gateway-cmd) at ${target} with ${dir}/gateway.yaml`);
    }
    for (const l of around.describe()) io.out(`apps: ${l}`);
    io.out(`apps: waiting for the gateway at ${target} (up to ${cfg.readyTimeoutS} s)`);
    const ready = () => awaitAppsGateway(target!, cfg.readyTimeoutS * 1000);
    await ready();
    const l = launched;
    const restart = l ? async () => (await l.restart(), await ready()) : undefined;
    return { target: target!, fixture: fixtureOf(around, target!, publicUrl!, restart), secrets: around.secrets, launched, teardown };
  } catch (e) {
    await teardown();
    throw e;
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
