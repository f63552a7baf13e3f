// The slow profile (`--profile slow`): the default run with the slow checks added (the idle
// probe: PROFILE_FACTS.slow.picks in src/core/features.ts); set up, run and refused as the
// default profile is.
import { FAULTS } from '../../../reference/faults/index.js';
import { DRIVEN, demoWith, recordingSuite, runningSuite, type ProfileModule } from '../profile.js';

const suite = recordingSuite(DRIVEN);

export const SLOW: ProfileModule = { run: runningSuite(suite), demo: demoWith(FAULTS), suite };
