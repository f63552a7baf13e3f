// `gw-conformance run` (the default command): the suite against a gateway, or the apps profile
// against a gateway of the user's own, or the client profile (real clients) through it; printed
// through the live console (src/cli/progress.ts).
import { COMMANDS } from '../../config/commands.js';
import { finishRun } from '../run.js';
import { ownSetUp, runApps } from '../apps.js';
import { runConfig, withOptions, type RegisterCommand } from '../shared.js';
import { withRecordingUpstream } from '../upstream.js';
import { inNamespace, runClientProfile } from '../client.js';
import { withInterrupt } from '../interrupt.js';
import { liveConsole } from '../progress.js';

export const registerRun: RegisterCommand = (program, { io, argv, exit }) => {
  withOptions(program.command('run', { isDefault: true }).description(COMMANDS.run.description), 'run').action(async (o) => {
    const cfg = runConfig(o, io);
    // The client profile runs itself again inside a loopback-only namespace where Claude Code needs one.
    if (cfg.profile === 'client') return exit((await inNamespace(cfg, argv, io)) ?? finishRun(await runClientProfile(cfg, io), cfg, io, argv));
    // Everything printed goes through the live console: colour, and the status line kept apart.
    const live = liveConsole(io, { color: cfg.color, plainLines: cfg.reporter.includes('console') });
    try {
      const report = await withInterrupt(live.io.err, async (interrupt) =>
        cfg.profile === 'apps' ? runApps(cfg, await ownSetUp(cfg, live.io), live.io.out) : withRecordingUpstream(cfg, live.io, { interrupt, progress: live.progress }, { viaRunningMock: true }),
      );
      live.stop();
      exit(finishRun(report, cfg, live.io, argv));
    } finally {
      live.stop();
    }
  });
};
