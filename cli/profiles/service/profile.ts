// The service profile (`--profile service`): the hosted-service checks, straight at the service
// (no recording upstream, no gateway started; the service key is the credential:
// PROFILE_FACTS.service in src/core/features.ts). `demo` refuses it: try it against
// `gw-conformance mock --service`.
import { HarnessError } from '../../../src/core/errors.js';
import { withExpandedTargeting } from '../../../src/config/config.js';
import { checkLaunch } from '../../../src/launch/launch.js';
import { FAULTS } from '../../../reference/faults/index.js';
import type { RunReport } from '../../../src/report/shared/types.js';
import { CHECKS } from '../../../suites/index.js';
import { runSuite } from '../../../src/runner/run.js';
import { faultNamed } from '../../shared/context.js';
import { requireTarget, startsGateway } from '../upstream.js';
import { live, runningSuite, type ProfileModule } from '../profile.js';

const suite: ProfileModule['suite'] = async (cfg, io, extras = {}) => {
  // Bad launch flags are found before anything starts (src/launch/launch.ts).
  checkLaunch(cfg.launch);
  requireTarget(cfg);
  if (startsGateway(cfg)) throw new HarnessError('BAD_FLAG', '--gateway-cmd and --gateway-image start a gateway in front of the recording upstream: not with --profile service');
  return runSuite(CHECKS, withExpandedTargeting(cfg, null, io.env), cfg.target!, null, io.out, extras);
};

export const SERVICE: ProfileModule = {
  run: runningSuite(suite),
  demo: (cfg, c) =>
    live(cfg, c, async (): Promise<RunReport> => {
      // An unknown --fault is named first, as for every profile.
      faultNamed(c.fault, FAULTS);
      throw new HarnessError('BAD_FLAG', 'the service profile checks a hosted service: run `gw-conformance run --profile service --target <service URL>` (try it locally against `gw-conformance mock --service`)');
    }),
  suite,
};
