// `gw-conformance demo`: the suite against the built-in reference gateway (or, with --profile
// apps, the reference apps gateway; with --profile client, real clients through the reference
// gateway), optionally with one fault.
import { HarnessError, parseListen } from '../../core/errors.js';
import { COMMANDS } from '../../config/commands.js';
import { withExpandedTargeting, type RunConfig } from '../../config/config.js';
import { RecordingUpstream } from '../../../mocks/upstream/server.js';
import { DEMO_UPSTREAM_TIMEOUT_MS, ReferenceGateway } from '../../../reference/gateway.js';
import { FAULTS, LOAD_FAULTS } from '../../../reference/faults/index.js';
import { CHECKS } from '../../../suites/index.js';
import type { RunReport } from '../../report/types.js';
import { finishRun, runSuite } from '../run.js';
import { runAppsDemo } from '../apps.js';
import { inNamespace, runClientProfile } from '../client.js';
import { withInterrupt, type Interruption } from '../interrupt.js';
import { liveConsole, type RunProgress } from '../progress.js';
import { faultNamed, runConfig, withOptions, type Io, type RegisterCommand } from '../shared.js';

export const registerDemo: RegisterCommand = (program, { io, argv, exit }) => {
  withOptions(program.command('demo').description(COMMANDS.demo.description), 'demo').action(async (o) => {
    const cfg = runConfig(o, io);
    if (cfg.launch.cmd || cfg.launch.image) throw new HarnessError('BAD_FLAG', `demo runs the built-in reference gateway: ${cfg.launch.cmd ? '--gateway-cmd' : '--gateway-image'} goes with \`run\``);
    if (cfg.profile === 'client') return exit((await inNamespace(cfg, argv, io)) ?? finishRun(await runClientProfile(cfg, io, { fault: o.fault }), cfg, io, argv));
    const live = liveConsole(io, { color: cfg.color, plainLines: cfg.reporter.includes('console') });
    try {
      const report = await withInterrupt(live.io.err, (interrupt) => (cfg.profile === 'apps' ? runAppsDemo(cfg, o.fault, live.io.out) : demo(cfg, o.fault, o.upstreamListen, live.io, interrupt, live.progress)));
      live.stop();
      exit(finishRun(report, cfg, live.io, argv));
    } finally {
      live.stop();
    }
  });
};

async function demo(cfg: RunConfig, faultName: string | undefined, listen: string | undefined, io: Io, interrupt: Interruption, progress?: RunProgress): Promise<RunReport> {
  const fault = faultNamed(faultName, cfg.profile === 'load' ? [...FAULTS, ...LOAD_FAULTS] : FAULTS);
  if (cfg.profile === 'service') throw new HarnessError('BAD_FLAG', 'the service profile checks a hosted service: run `gw-conformance run --profile service --target <service URL>` (try it locally against `gw-conformance mock --service`)');
  const upstream = new RecordingUpstream();
  // The demo's upstream takes a free port unless --upstream-listen names one (gwc.yaml's is for `run`).
  const { host, port } = parseListen(listen ?? '127.0.0.1:0', '--upstream-listen');
  await upstream.start(host, port);
  const gw = new ReferenceGateway({ upstream: upstream.url, fault, upstreamTimeoutMs: DEMO_UPSTREAM_TIMEOUT_MS, limit: cfg.load.declaredLimit });
  try {
    const target = await gw.start('127.0.0.1', 0);
    io.out(`demo: reference gateway at ${target}${fault ? ` with fault ${fault.name} (${fault.description})` : ' (no fault)'}`);
    return await runSuite(CHECKS, withExpandedTargeting(cfg, upstream.url, io.env), target, upstream, io.out, { interrupt, progress });
  } finally {
    await gw.stop();
    await upstream.stop();
  }
}
