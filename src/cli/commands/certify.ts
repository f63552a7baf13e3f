// `gw-conformance certify`: the profile with a transcript, written as a conformance report folder;
// printed through the live console (src/cli/progress.ts), as `run` is.
import { COMMANDS } from '../../config/commands.js';
import { certify, type CertifyFlags } from '../certify.js';
import { runConfig, withOptions, type RegisterCommand } from '../shared.js';
import { PROFILE_MODULES } from '../profiles/index.js';
import { withInterrupt } from '../interrupt.js';
import { liveConsole } from '../progress.js';
import type { FlagValues } from '../../config/config.js';

export const registerCertify: RegisterCommand = (program, { io, argv, exit }) => {
  withOptions(program.command('certify').description(COMMANDS.certify.description), 'certify').action(async (o: FlagValues & CertifyFlags & { config?: string }) => {
    const cfg = runConfig(o, io, { alwaysWrites: true });
    const live = liveConsole(io, { color: cfg.color, plainLines: cfg.reporter.includes('console') });
    try {
      const code = await withInterrupt(live.io.err, (interrupt) => certify(cfg, o, live.io, (c, extras) => PROFILE_MODULES[c.profile].suite(c, live.io, { ...extras, interrupt, progress: live.progress }), argv));
      live.stop();
      exit(code);
    } finally {
      live.stop();
    }
  });
};
