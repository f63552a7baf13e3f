// `gw-conformance run` (the default command): the run's profile against a gateway, as its module
// runs it (cli/profiles/: the suite beside the recording upstream, the apps profile against a
// gateway of the user's own, the client profile's real clients through it). Registered at
// start-up; the action loads the checks and the profiles when it runs.
import { COMMANDS } from '../../src/config/commands.js';
import { withOptions, type RegisterCommand } from '../shared/context.js';

export const registerRun: RegisterCommand = (program, { io, argv, exit }) => {
  withOptions(program.command('run', { isDefault: true }).description(COMMANDS.run.description), 'run').action(async (o) => {
    const [{ runConfig }, { CHECKS }, { dryRun }, { PROFILE_MODULES }] = await Promise.all([import('../shared/run-config.js'), import('../../suites/index.js'), import('../shared/dry-run.js'), import('../profiles/index.js')]);
    const cfg = runConfig(o, io);
    if (o.dryRun) return exit(dryRun(CHECKS, cfg, io));
    exit(await PROFILE_MODULES[cfg.profile].run(cfg, { io, argv }));
  });
};
