// `gw-conformance verify <dir>`: re-runs a certify folder with its recorded seed and settings;
// the re-run shows its progress through the live console (cli/shared/progress.ts), as `run` does.
// Registered at start-up; the action loads the re-run when it runs.
import { COMMANDS } from '../../src/config/commands.js';
import type { VerifyFlags } from './verify.js';
import { withOptions, type RegisterCommand } from '../shared/context.js';

export const registerVerify: RegisterCommand = (program, { io, exit }) => {
  const [dir] = COMMANDS.verify.args!;
  withOptions(program.command('verify').description(COMMANDS.verify.description).argument(dir.name, dir.help), 'verify').action(async (d: string, o: VerifyFlags) => {
    const [{ verify }, { PROFILE_MODULES }, { liveConsole }] = await Promise.all([import('./verify.js'), import('../profiles/index.js'), import('../shared/progress.js')]);
    const live = liveConsole(io, { plainLines: true });
    try {
      const code = await verify(d, o, live.io, (cfg, extras) => PROFILE_MODULES[cfg.profile].suite(cfg, live.io, { ...extras, progress: live.progress }));
      live.stop();
      exit(code);
    } finally {
      live.stop();
    }
  });
};
