// Runs of tests that are not about time. Tests of the CLI's wiring, reports, sharding and
// packaging run the suite only to have a run: they leave out the checks that judge time, so
// their verdicts cannot depend on how loaded the machine is (these files run two at a time,
// vitest.config.ts), and so that the 12 s idle probe and the 16 s streams do not set each run's length. What they
// leave out is proven elsewhere, after them: the detection matrix (test/detection/detection.test.ts to
// detection-8.test.ts: the clean gateway passes each of these checks, a fault fails each) and the nginx tests.
import { CHECKS } from '../../suites/index.js';

/** The default profile's long-stream probes: 12 s of silence (no pings), 16 s (with pings) and a 16 s stream, of waiting in every default run. */
export const IDLE_PROBES = ['streaming.idle.default', 'streaming.keepalive.ping', 'streaming.long.duration'];
/** `--skip` flags for the idle probes alone (a test that needs the stream checks, e.g. a chart of one). */
export const NO_IDLE_PROBE = IDLE_PROBES.flatMap((id) => ['--skip', id]);

/** The default profile's stream timing checks (`timing`: the stream oracle's verdicts). */
export const TIMING_CHECKS = CHECKS.filter((c) => c.profile === 'default' && c.timing).map((c) => c.id);
/** `--skip` flags for them (a test that needs a long run, the idle probe's 12 s, but no stream timing verdict). */
export const NO_TIMING_CHECKS = TIMING_CHECKS.flatMap((id) => ['--skip', id]);

/** The default profile's checks that judge time: the stream timing checks and the idle probe. */
export const TIME_JUDGED = [...TIMING_CHECKS, ...IDLE_PROBES];
/** `--skip` flags for all of them. */
export const UNTIMED = TIME_JUDGED.flatMap((id) => ['--skip', id]);
