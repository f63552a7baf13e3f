// `gw-conformance demo`: the run's profile against the built-in reference gateway, optionally
// with one fault, as its module runs it (cli/profiles/: the suite, the reference apps
// gateway, real clients through the reference gateway). Registered at start-up; the action loads
// the checks, the profiles and the reference gateway when it runs.
import { HarnessError } from '../../src/core/errors.js';
import { COMMANDS } from '../../src/config/commands.js';
import { withOptions, type RegisterCommand } from '../shared/context.js';

export const registerDemo: RegisterCommand = (program, { io, argv, exit }) => {
  withOptions(program.command('demo').description(COMMANDS.demo.description), 'demo').action(async (o) => {
    const [{ runConfig }, { CHECKS }, { dryRun }, { PROFILE_MODULES }] = await Promise.all([import('../shared/run-config.js'), import('../../suites/index.js'), import('../shared/dry-run.js'), import('../profiles/index.js')]);
    const cfg = runConfig(o, io);
    if (o.dryRun) return exit(dryRun(CHECKS, cfg, io));
    if (cfg.launch.cmd || cfg.launch.image) throw new HarnessError('BAD_FLAG', `demo runs the built-in reference gateway: ${cfg.launch.cmd ? '--gateway-cmd' : '--gateway-image'} goes with \`run\``);
    exit(await PROFILE_MODULES[cfg.profile].demo(cfg, { io, argv, fault: o.fault, upstreamListen: o.upstreamListen }));
  });
};
