// `gw-conformance run` (the default command): the run's profile against a gateway, as its module
// runs it (src/cli/profiles/: the suite beside the recording upstream, the apps profile against a
// gateway of the user's own, the client profile's real clients through it).
import { COMMANDS } from '../../config/commands.js';
import { CHECKS } from '../../../suites/index.js';
import { dryRun } from '../dry-run.js';
import { runConfig, withOptions, type RegisterCommand } from '../shared.js';
import { PROFILE_MODULES } from '../profiles/index.js';

export const registerRun: RegisterCommand = (program, { io, argv, exit }) => {
  withOptions(program.command('run', { isDefault: true }).description(COMMANDS.run.description), 'run').action(async (o) => {
    const cfg = runConfig(o, io);
    if (o.dryRun) return exit(dryRun(CHECKS, cfg, io));
    exit(await PROFILE_MODULES[cfg.profile].run(cfg, { io, argv }));
  });
};
