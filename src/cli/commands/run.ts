// `gw-conformance run` (the default command): the suite against a gateway, or the apps profile
// against a gateway of the user's own, printed through the live console (src/cli/progress.ts).
import { COMMANDS } from '../../config/commands.js';
import { finishRun } from '../run.js';
import { ownSetUp, runApps } from '../apps.js';
import { runConfig, withOptions, type RegisterCommand } from '../shared.js';
import { withRecordingUpstream } from '../upstream.js';
import { liveConsole } from '../progress.js';

export const registerRun: RegisterCommand = (program, { io, argv, exit }) => {
  withOptions(program.command('run', { isDefault: true }).description(COMMANDS.run.description), 'run').action(async (o) => {
    const cfg = runConfig(o, io);
    // Everything printed goes through the live console: colour, and the status line kept apart.
    const live = liveConsole(io, { color: cfg.color, plainLines: cfg.reporter.includes('console') });
    try {
      const report = cfg.profile === 'apps' ? await runApps(cfg, await ownSetUp(cfg, live.io), live.io.out) : await withRecordingUpstream(cfg, live.io, { progress: live.progress }, { viaRunningMock: true });
      live.stop();
      exit(finishRun(report, cfg, live.io, argv));
    } finally {
      live.stop();
    }
  });
};
