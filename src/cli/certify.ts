// certify, verify and merge-reports: the vendor conformance report, its reproduction, and the
// merged reports of shards. The suite itself is run by the caller (src/cli/upstream.ts wires the
// checks and the recording upstream), so this file stands alone.
import { join } from 'node:path';
import type { RunConfig } from '../config/config.js';
import { resolveConfig, SERVICE_ENV } from '../config/config.js';
import { HarnessError } from '../core/errors.js';
import { COMMANDS } from '../config/commands.js';
import { DEFAULT_REPORTERS, NO_CREDENTIAL, type JunitFormat, type ReporterName } from '../config/options.js';
import type { RunReport } from '../report/types.js';
import { writeReports } from '../reporters/index.js';
import { reportersFor } from '../reporters/names.js';
import { withReplay } from '../report/replay.js';
import { withFixes } from './fixes.js';
import { firstDifference, transcriptDigest, transcriptLines, type Transcript } from '../report/transcript.js';
import { compareVerdicts, CONFORMANCE_FILE, conformanceReport, readCertifyDir, writeCertifyFiles, type Implementation } from '../report/certify.js';
import { conformanceMismatch } from '../report/certify-match.js';
import { mergeReports, readReport } from '../report/merge.js';
import type { SuiteExtras } from './run.js';

type Io = { out: (s: string) => void; err: (s: string) => void; env: NodeJS.ProcessEnv };
/** Runs the selected checks against cfg.target with the run's own recording upstream. */
export type SuiteRunner = (cfg: RunConfig, extras: SuiteExtras) => Promise<RunReport>;

/** The settings verify needs to run the same checks the same way, as gwc.yaml keys (never the credential; `token: none` when the run sent none). */
export function recordedSettings(cfg: RunConfig): Record<string, unknown> {
  return {
    profile: cfg.profile,
    protocols: cfg.protocols,
    only: cfg.only,
    skip: cfg.skip,
    seed: cfg.seed,
    runs: cfg.runs,
    'timeout-ms': cfg.timeoutMs,
    concurrency: cfg.concurrency,
    strict: cfg.strict,
    'model-routes': cfg.modelRoutes,
    capabilities: cfg.capabilities.run,
    'require-capability': cfg.capabilities.required,
    'sse-max-lag-ms': cfg.sse.maxLagMs,
    'sse-burst-window-ms': cfg.sse.burstWindowMs,
    'idle-max-s': cfg.idle.maxS,
    'idle-min-s': cfg.idle.minS,
    repeat: cfg.repeat,
    'repeat-failures': cfg.repeatFailures,
    'allow-flaky': cfg.allowFlaky,
    'upstream-listen': cfg.upstreamListen,
    // Not the credential, but whether there was one: verify then sends none either.
    ...(cfg.token === '' ? { token: NO_CREDENTIAL } : {}),
  };
}

/** The arguments without the credential (`--token X`, `--token=X`). */
export function withoutCredential(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--token') i++;
    else if (!argv[i].startsWith('--token=')) out.push(argv[i]);
  }
  return out;
}

export interface CertifyFlags {
  implementationName?: string;
  implementationVersion?: string;
  organization?: string;
  url?: string;
  contact?: string;
}

export async function certify(cfg: RunConfig, flags: CertifyFlags, io: Io, run: SuiteRunner, argv: string[]): Promise<number> {
  if (!cfg.target && !cfg.launch.cmd && !cfg.launch.image) throw new HarnessError('BAD_FLAG', 'certify: --target is required (or `target:` in gwc.yaml, or --gateway-cmd / --gateway-image to start the gateway)');
  if (!flags.implementationName?.trim() || !flags.implementationVersion?.trim()) throw new HarnessError('BAD_FLAG', 'certify: --implementation-name and --implementation-version are required');
  if (cfg.shard) throw new HarnessError('BAD_FLAG', 'certify: a conformance report covers the whole profile; --shard is not allowed (certify each shard with `run`, then `merge-reports`)');
  const implementation: Implementation = { name: flags.implementationName.trim(), version: flags.implementationVersion.trim(), organization: flags.organization, url: flags.url, contact: flags.contact };
  const transcript: Transcript = new Map();
  const report = await run(cfg, { transcript });
  // A conformance report covers the whole profile: an interrupted run gives none.
  if (report.interrupted) throw new HarnessError('INTERRUPTED', 'certify: interrupted (Ctrl-C); no conformance report was written');
  const lines = transcriptLines(transcript);
  const digest = transcriptDigest(transcript);
  const clean = withoutCredential(argv);
  const files = writeReports(withFixes(withReplay(report, clean)), ['json', 'junit', 'html', ...(cfg.reporter.includes('console') ? (['console'] as ReporterName[]) : [])], cfg.out, io.out, { junitFormat: cfg.junitFormat });
  const doc = conformanceReport({ report, transcript: lines, digest, implementation, settings: recordedSettings(cfg), argv: clean });
  files.push(...writeCertifyFiles(cfg.out, doc, lines));
  const p = doc.profiles[0];
  io.out(`certify: ${implementation.name} ${implementation.version}, profile ${p.name}: ${p.result} (${p.summary}); transcript digest ${digest} over ${lines.length} exchanges; written to ${cfg.out}/`);
  return report.exitCode;
}

export interface VerifyFlags {
  target?: string;
  upstreamListen?: string;
  token?: string;
  /** Start the gateway again with this command (and environment) instead of --target. */
  gatewayCmd?: string;
  gatewayEnv?: string[];
}

export async function verify(dir: string, flags: VerifyFlags, io: Io, run: SuiteRunner): Promise<number> {
  const { doc, transcript } = readCertifyDir(dir);
  const recorded = readReport(dir);
  // The conformance report is what a reader trusts: it must say what the run's files hold.
  const mismatch = conformanceMismatch(doc, recorded, transcript);
  if (mismatch) throw new HarnessError('BAD_REPORT', `verify: ${join(dir, CONFORMANCE_FILE)} does not match the run it reports: ${mismatch}`);
  // The recorded settings, as a gwc.yaml; only the credential comes from the environment.
  const env: NodeJS.ProcessEnv = {};
  for (const k of [...(COMMANDS.verify.env ?? []), ...Object.values(SERVICE_ENV)]) if (io.env[k] !== undefined) env[k] = io.env[k];
  // With --gateway-cmd the harness starts the gateway again (its address is new each time).
  const cfg = resolveConfig(
    { target: flags.gatewayCmd ? flags.target : (flags.target ?? doc.runReport.target), upstreamListen: flags.upstreamListen, token: flags.token, reporter: ['json'], gatewayCmd: flags.gatewayCmd, gatewayEnv: flags.gatewayEnv },
    doc.settings,
    env,
  );
  io.out(`verify: re-running ${recorded.results.length} checks of ${doc.implementation.name} ${doc.implementation.version} against ${cfg.target ?? `the gateway started by --gateway-cmd`} (seed ${cfg.seed}, profile ${cfg.profile})`);
  const t: Transcript = new Map();
  const now = await run(cfg, { transcript: t });
  const cmp = compareVerdicts(recorded, now);
  for (const c of cmp) io.out(`${c.reproduced ? 'REPRODUCED' : 'DIFFERS   '} ${c.id.padEnd(40)} ${c.reproduced ? c.recorded : `recorded ${c.recorded ?? '(absent)'}, now ${c.now ?? '(absent)'}${c.message ? `: ${c.message}` : ''}`}`);
  const digest = transcriptDigest(t);
  const same = digest === doc.transcript.digest;
  const diff = same ? null : firstDifference(transcript, transcriptLines(t));
  const differing = cmp.filter((c) => !c.reproduced).length;
  io.out(`verdicts: ${cmp.length - differing} of ${cmp.length} reproduced${differing ? `, ${differing} differ` : ''}`);
  io.out(same ? `transcript digest matches: ${digest}` : `transcript digest differs: recorded ${doc.transcript.digest}, now ${digest}; first difference: ${diff ?? 'none by exchange (the recorded transcript file does not match its digest)'}`);
  if (now.results.some((r) => r.outcome === 'error')) {
    io.err('gw-conformance: verify: the harness broke on a check in the re-run; its verdicts cannot be compared');
    return 2;
  }
  io.out(differing === 0 && same ? 'Result: reproduced.' : 'Result: NOT reproduced.');
  return differing === 0 && same ? 0 : 1;
}

/** `reporter`: the formats to write (all when absent). */
export async function mergeCommand(dirs: string[], opts: { out: string; force?: boolean; reporter?: ReporterName[]; junitFormat?: JunitFormat }, order: string[], io: Io): Promise<number> {
  const named = dirs.map((d) => ({ name: d, report: readReport(d) }));
  const { report, notes } = mergeReports(named, { force: opts.force, order });
  for (const n of notes) io.err(`gw-conformance: merge-reports --force: ${n}`);
  // As in run: `github` is added in GitHub Actions, and writes the job summary GITHUB_STEP_SUMMARY names.
  const names = reportersFor(opts.reporter ?? [...DEFAULT_REPORTERS], io.env);
  const stepSummary = names.includes('github') ? io.env.GITHUB_STEP_SUMMARY || undefined : undefined;
  io.out(`merge-reports: ${named.length} reports, ${report.results.length} checks`);
  writeReports(report, names, opts.out, io.out, { junitFormat: opts.junitFormat, stepSummary });
  return report.exitCode;
}
