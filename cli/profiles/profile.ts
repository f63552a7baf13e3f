// What a profile is to the commands, and what most profiles share. A profile is one module of
// this folder (the record of them all is index.ts): how `run` and `demo` run it, how `run`,
// `certify` and `verify` run its suite, and what it refuses. What the layers below the commands
// need of a profile (the checks it picks, what its shards split, its credential) is
// PROFILE_FACTS in src/core/features.ts.
import { HarnessError } from '../../src/core/errors.js';
import type { RunConfig } from '../../src/config/config.js';
import type { Fault } from '../../reference/faults/index.js';
import type { RunReport } from '../../src/report/shared/types.js';
import { demo } from './demo.js';
import { withInterrupt, type Interruption } from '../shared/interrupt.js';
import { liveConsole, type RunProgress } from '../shared/progress.js';
import type { SuiteExtras } from '../../src/runner/run.js';
import { finishRun } from '../../src/runner/finish.js';
import { CHECKS } from '../../suites/index.js';
import type { Io } from '../shared/context.js';
import { driven, withRecordingUpstream, type MockRun, type MockUse, type RecordingOptions } from './upstream.js';

/** What a command hands a profile: the process's io and the arguments (for replay commands). */
export interface Invocation {
  io: Io;
  argv: string[];
}

/** `demo`'s own flags. */
export interface DemoInvocation extends Invocation {
  fault?: string;
  upstreamListen?: string;
}

export interface ProfileModule {
  /** `run`: the profile against the user's gateway; its reports written, the exit code. */
  run(cfg: RunConfig, c: Invocation): Promise<number>;
  /** `demo`: the profile against the reference gateway (--fault); its reports written, the exit code. */
  demo(cfg: RunConfig, c: DemoInvocation): Promise<number>;
  /** The suite of `run` (by way of `run` above, where the profile runs it), `certify` and `verify`: the report. */
  suite(cfg: RunConfig, io: Io, extras?: SuiteExtras, opts?: RecordingOptions): Promise<RunReport>;
}

/** What a run printed through the live console is given: its io, Ctrl-C, the progress of the checks. */
export interface Live {
  io: Io;
  interrupt: Interruption;
  progress: RunProgress;
}

/** A run printed through the live console (colour, the status line kept apart), Ctrl-C heard; its reports written, the exit code. */
export async function live(cfg: RunConfig, c: Invocation, body: (l: Live) => Promise<RunReport>): Promise<number> {
  const screen = liveConsole(c.io, { color: cfg.color, plainLines: cfg.reporter.includes('console') });
  try {
    const report = await withInterrupt(screen.io.err, (interrupt) => body({ io: screen.io, interrupt, progress: screen.progress }));
    screen.stop();
    return finishRun(report, cfg, screen.io, CHECKS, c.argv);
  } finally {
    screen.stop();
  }
}

/** `run` of a profile whose suite is all it runs (the recording upstream's, a running mock's, or none). */
export const runningSuite =
  (suite: ProfileModule['suite']): ProfileModule['run'] =>
  (cfg, c) =>
    live(cfg, c, (l) => suite(cfg, l.io, { interrupt: l.interrupt, progress: l.progress }, { viaRunningMock: true }));

/** `demo` of a profile run against the reference gateway with one of `faults`. */
export const demoWith =
  (faults: readonly Fault[]): ProfileModule['demo'] =>
  (cfg, c) =>
    live(cfg, c, (l) => demo(cfg, { fault: c.fault, faults, listen: c.upstreamListen }, l.io, { interrupt: l.interrupt, progress: l.progress }));

/** --attach for a profile that does not attach (every one but load). */
export const refuseAttach: MockRun = async (cfg) => {
  throw new HarnessError('BAD_FLAG', `--attach is for the load profile (got --profile ${cfg.profile}); other runs use a mock on this machine through --upstream-listen`);
};

/** A profile whose runs have their own recording upstream, or let a running mock holding its address drive them. */
export const DRIVEN: MockUse = { attach: refuseAttach, held: driven };

/** The suite with the run's recording upstream, a running mock used as `mock` says. */
export const recordingSuite =
  (mock: MockUse): ProfileModule['suite'] =>
  (cfg, io, extras, opts) =>
    withRecordingUpstream(cfg, io, mock, extras, opts);
