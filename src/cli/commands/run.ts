// `gw-conformance run` (the default command): the suite against a gateway, or the apps profile
// against a gateway of the user's own.
import { COMMANDS } from '../../config/commands.js';
import { finishRun } from '../run.js';
import { ownSetUp, runApps } from '../apps.js';
import { runConfig, withOptions, type RegisterCommand } from '../shared.js';
import { withRecordingUpstream } from '../upstream.js';

export const registerRun: RegisterCommand = (program, { io, argv, exit }) => {
  withOptions(program.command('run', { isDefault: true }).description(COMMANDS.run.description), 'run').action(async (o) => {
    const cfg = runConfig(o, io);
    const report = cfg.profile === 'apps' ? await runApps(cfg, await ownSetUp(cfg, io), io.out) : await withRecordingUpstream(cfg, io, {}, { viaRunningMock: true });
    exit(finishRun(report, cfg, io, argv));
  });
};
