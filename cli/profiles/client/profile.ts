// The client profile (`--profile client`, docs/client-profile.md): real clients run straight and
// through the gateway, and its checks compare the two runs (cli/profiles/client/client.ts). It runs with
// `run` and `demo` only, itself again inside a loopback-only namespace where Claude Code needs
// one, and prints its own progress (no live console).
import { HarnessError } from '../../../src/core/errors.js';
import { checkLaunch } from '../../../src/launch/launch.js';
import { inNamespace, refuseWithoutCredential, runClientProfile } from './client.js';
import { finishRun } from '../../../src/runner/finish.js';
import { CHECKS } from '../../../suites/index.js';
import type { ProfileModule } from '../profile.js';

export const CLIENT: ProfileModule = {
  // A client that cannot start under --no-token is refused before the namespace is entered.
  run: async (cfg, c) => (refuseWithoutCredential(cfg, c.io.env), await inNamespace(cfg, c.argv, c.io)) ?? finishRun(await runClientProfile(cfg, c.io), cfg, c.io, CHECKS, c.argv),
  demo: async (cfg, c) => (refuseWithoutCredential(cfg, c.io.env), await inNamespace(cfg, c.argv, c.io)) ?? finishRun(await runClientProfile(cfg, c.io, { fault: c.fault }), cfg, c.io, CHECKS, c.argv),
  suite: async (cfg) => {
    // Bad launch flags are found before anything starts (src/launch/launch.ts).
    checkLaunch(cfg.launch);
    throw new HarnessError('BAD_FLAG', 'the client profile runs with `run` and `demo` only (its checks compare real clients\' runs)');
  },
};
