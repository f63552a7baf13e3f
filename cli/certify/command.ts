// `gw-conformance certify`: the profile with a transcript, written as a conformance report folder;
// printed through the live console (cli/shared/progress.ts), as `run` is. Registered at start-up;
// the action loads the run, the profiles and the conformance report when it runs.
import { COMMAND_OPTIONS, COMMANDS } from '../../src/config/commands.js';
import type { CertifyFlags } from './certify.js';
import { withOptions, type RegisterCommand } from '../shared/context.js';
import type { FlagValues } from '../../src/config/config.js';

/** Its row: the flag, and the variable that holds the key when the flag is absent. */
const SIGNING_KEY = COMMAND_OPTIONS.find((r) => r.name === 'signing-key' && r.commands!.includes('certify'))!;

export const registerCertify: RegisterCommand = (program, { io, argv, exit }) => {
  withOptions(program.command('certify').description(COMMANDS.certify.description), 'certify').action(async (o: FlagValues & CertifyFlags & { config?: string }) => {
    const [{ runConfig }, { certify, readSigningKey }, { PROFILE_MODULES }, { withInterrupt }, { liveConsole }] = await Promise.all([
      import('../shared/run-config.js'),
      import('./certify.js'),
      import('../profiles/index.js'),
      import('../shared/interrupt.js'),
      import('../shared/progress.js'),
    ]);
    const cfg = runConfig(o, io, { alwaysWrites: true });
    // The signing key is read (and refused when it is no Ed25519 key) before the run, and kept out of cfg.
    const env = SIGNING_KEY.env!;
    const signer = o.signingKey !== undefined ? readSigningKey(String(o.signingKey), '--signing-key') : readSigningKey(io.env[env], env);
    const live = liveConsole(io, { color: cfg.color, plainLines: cfg.reporter.includes('console') });
    try {
      const code = await withInterrupt(live.io.err, (interrupt) => certify(cfg, { ...o, signer }, live.io, (c, extras) => PROFILE_MODULES[c.profile].suite(c, live.io, { ...extras, interrupt, progress: live.progress }), argv));
      live.stop();
      exit(code);
    } finally {
      live.stop();
    }
  });
};
