// The load profile (`--profile load`, docs/load-profile.md): many requests at once, bounded (its
// checks get the load settings: PROFILE_FACTS.load in src/core/features.ts). A run attaches to a
// running `gw-conformance mock` (--attach, or the mock holding --upstream-listen) instead of
// letting it drive the run, so several load processes (`--shard i/n`, each running every load
// check: PROFILE_FACTS.load.shards) share one recording upstream. `demo` knows the load faults
// besides the others.
import { FAULTS, LOAD_FAULTS } from '../../../reference/faults/index.js';
import { attached } from '../upstream.js';
import { demoWith, recordingSuite, runningSuite, type ProfileModule } from '../profile.js';

const suite = recordingSuite({ attach: attached, held: attached });

export const LOAD: ProfileModule = { run: runningSuite(suite), demo: demoWith([...FAULTS, ...LOAD_FAULTS]), suite };
