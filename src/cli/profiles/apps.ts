// The apps profile (`--profile apps`): the apps gateway with its surroundings (IdP, collector,
// upstreams; src/cli/apps.ts). `run` sets them up around the user's gateway (--target with
// --apps-config, or --gateway-cmd), `demo` around the reference apps gateway (--fault: an apps
// fault); `certify` and `verify` run its suite beside the recording upstream, as the default
// profile's.
import { ownSetUp, runApps, runAppsDemo } from '../apps.js';
import { DRIVEN, live, recordingSuite, type ProfileModule } from './profile.js';

export const APPS: ProfileModule = {
  run: (cfg, c) => live(cfg, c, async (l) => runApps(cfg, await ownSetUp(cfg, l.io), l.io.out)),
  demo: (cfg, c) => live(cfg, c, (l) => runAppsDemo(cfg, c.fault, l.io.out)),
  suite: recordingSuite(DRIVEN),
};
