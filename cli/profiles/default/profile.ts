// The default profile (`--profile default`, what a run is without one): the suite against the
// gateway beside the run's recording upstream (or a running mock holding its address, which
// drives the run), any fault of the reference gateway in `demo`.
import { FAULTS } from '../../../reference/faults/index.js';
import { DRIVEN, demoWith, recordingSuite, runningSuite, type ProfileModule } from '../profile.js';

const suite = recordingSuite(DRIVEN);

export const DEFAULT: ProfileModule = { run: runningSuite(suite), demo: demoWith(FAULTS), suite };
