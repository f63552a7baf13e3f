// `gw-conformance run` (the default command): the suite against a gateway, or the apps profile
// against a gateway of the user's own, or the client profile (real clients) through it.
import { COMMANDS } from '../../config/commands.js';
import { finishRun } from '../run.js';
import { ownSetUp, runApps } from '../apps.js';
import { runConfig, withOptions, type RegisterCommand } from '../shared.js';
import { withRecordingUpstream } from '../upstream.js';
import { inNamespace, runClientProfile } from '../client.js';
import { withInterrupt } from '../interrupt.js';

export const registerRun: RegisterCommand = (program, { io, argv, exit }) => {
  withOptions(program.command('run', { isDefault: true }).description(COMMANDS.run.description), 'run').action(async (o) => {
    const cfg = runConfig(o, io);
    // The client profile runs itself again inside a loopback-only namespace where Claude Code needs one.
    if (cfg.profile === 'client') return exit((await inNamespace(cfg, argv, io)) ?? finishRun(await runClientProfile(cfg, io), cfg, io, argv));
    const report = await withInterrupt(io.err, async (interrupt) =>
      cfg.profile === 'apps' ? runApps(cfg, await ownSetUp(cfg, io), io.out) : withRecordingUpstream(cfg, io, { interrupt }, { viaRunningMock: true }),
    );
    exit(finishRun(report, cfg, io, argv));
  });
};
