// The apps profile (`--profile apps`): the apps gateway with its surroundings (IdP, collector,
// upstreams; cli/profiles/apps/apps.ts). `run` sets them up around the user's gateway (--target with
// --apps-config, or --gateway-cmd), `demo` around the reference apps gateway (--fault: an apps
// fault); `certify` and `verify` run its suite beside the recording upstream, as the default
// profile's.
import { withExpandedTargeting, type RunConfig } from '../../../src/config/config.js';
import { ownSetUp, runApps, runAppsDemo } from './apps.js';
import type { Io } from '../../shared/context.js';
import { DRIVEN, live, recordingSuite, type ProfileModule } from '../profile.js';

/** The targeting's header values expanded against the command's environment (no recording upstream). */
const expanded = (cfg: RunConfig, io: Io) => withExpandedTargeting(cfg, null, io.env);

export const APPS: ProfileModule = {
  run: (cfg, c) => live(cfg, c, async (l) => runApps(expanded(cfg, c.io), await ownSetUp(cfg, l.io), l.io.out)),
  demo: (cfg, c) => live(cfg, c, (l) => runAppsDemo(expanded(cfg, c.io), c.fault, l.io.out)),
  suite: recordingSuite(DRIVEN),
};
