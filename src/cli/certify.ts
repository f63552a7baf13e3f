// certify, verify and merge-reports: the vendor conformance report, its reproduction, and the
// merged reports of shards. The suite itself is run by the caller (src/cli/upstream.ts wires the
// checks and the recording upstream), so this file stands alone.
import { loadShardLines } from '../report/load-shards.js';
import type { KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
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
import { compareVerdicts, CONFORMANCE_FILE, conformanceReport, readCertifyDir, writeCertifyFiles, type ConformanceReport, type Implementation } from '../report/certify.js';
import { conformanceMismatch } from '../report/certify-match.js';
import { assertDistinct, mergeReports, readReport } from '../report/merge.js';
import { predicateOf, signingKeyOf, STATEMENT_FILE, writeStatement } from '../report/statement.js';
import { publicKeyOf, StatementRefusal, verifyStatement } from '../report/statement-verify.js';
import { secretsOf, type SuiteExtras } from './run.js';
import { plural } from '../core/words.js';

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

/** The flags whose values no report may hold: the credential, and the signing key (a file, or the PEM itself). */
const SECRET_FLAGS = ['--token', '--signing-key'];

/** The arguments without the credential and the signing key (`--token X`, `--token=X`, `--signing-key X`). */
export function withoutCredential(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (SECRET_FLAGS.includes(argv[i])) i++;
    else if (!SECRET_FLAGS.some((f) => argv[i].startsWith(`${f}=`))) out.push(argv[i]);
  }
  return out;
}

export interface CertifyFlags {
  implementationName?: string;
  implementationVersion?: string;
  organization?: string;
  url?: string;
  contact?: string;
  /** The Ed25519 key that signs statement.intoto.jsonl (--signing-key or GWC_SIGNING_KEY), read before the run; absent: not signed. */
  signer?: KeyObject;
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
  files.push(...writeCertifyFiles(cfg.out, doc, lines, flags.signer !== undefined));
  const p = doc.profiles[0];
  io.out(`certify: ${implementation.name} ${implementation.version}, profile ${p.name}: ${p.result} (${p.summary}); transcript digest ${digest} over ${plural(lines.length, 'exchange')}; written to ${cfg.out}/`);
  io.out(signFolder(cfg, files, doc, report, flags.signer));
  return report.exitCode;
}

/** Signs the folder's report files when a key was given; the line certify prints either way. */
function signFolder(cfg: RunConfig, files: string[], doc: ConformanceReport, report: RunReport, key: KeyObject | undefined): string {
  if (!key) return `certify: not signed (no --signing-key or GWC_SIGNING_KEY): no ${STATEMENT_FILE} written`;
  const reportFiles = files.filter((f) => existsSync(f) && resolve(dirname(f)) === resolve(cfg.out));
  const s = writeStatement(cfg.out, reportFiles, predicateOf(doc, report, secretsOf(cfg)), key);
  return `certify: signed ${STATEMENT_FILE} (in-toto statement in a DSSE envelope, Ed25519 key ${s.keyId}) over ${plural(s.subjects, 'file')}`;
}

/**
 * A key given as a file or as the PEM itself (GWC_SIGNING_KEY holds it); `name` is the flag or
 * variable. Messages name the file, never the key.
 */
export function keyText(value: string, name: string): { pem: string; from: string } {
  if (value.trimStart().startsWith('-----BEGIN')) return { pem: value, from: name };
  // A variable may hold a key in some other form: its value is never shown, only a flag's file name.
  const shown = name.startsWith('--') ? `${name} ${value}` : name;
  try {
    return { pem: readFileSync(value, 'utf8'), from: shown };
  } catch (e) {
    throw new HarnessError('BAD_FLAG', `${shown}: neither a PEM key nor a file that can be read (${(e as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
}

/** The signing key of certify, from the flag's or the variable's value (a file, or the PEM). */
export function readSigningKey(value: string | undefined, name: string): KeyObject | undefined {
  if (value === undefined || value === '') return undefined;
  const { pem, from } = keyText(value, name);
  return signingKeyOf(pem, from);
}

/** With --public-key: the signed statement checked before anything runs; the line a refusal prints, or null. */
function checkSigned(dir: string, publicKey: string | undefined, io: Io): string | null {
  if (publicKey === undefined) {
    if (existsSync(join(dir, STATEMENT_FILE))) io.out(`verify: ${STATEMENT_FILE} not checked (give --public-key to check its signature and digests)`);
    return null;
  }
  const { pem, from } = keyText(publicKey, '--public-key');
  const key = publicKeyOf(pem, from);
  try {
    io.out(verifyStatement(dir, key));
    return null;
  } catch (e) {
    if (e instanceof StatementRefusal) return e.message;
    throw e;
  }
}

export interface VerifyFlags {
  /** The Ed25519 public key (PEM file) that must have signed statement.intoto.jsonl. */
  publicKey?: string;
  target?: string;
  upstreamListen?: string;
  token?: string;
  /** Start the gateway again with this command (and environment) instead of --target. */
  gatewayCmd?: string;
  gatewayEnv?: string[];
}

export async function verify(dir: string, flags: VerifyFlags, io: Io, run: SuiteRunner): Promise<number> {
  // A folder that is not what was signed is not reproduced: one line naming the file, exit 1.
  const refused = checkSigned(dir, flags.publicKey, io);
  if (refused) {
    io.err(`gw-conformance: ${refused}`);
    return 1;
  }
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
  io.out(`verify: re-running ${plural(recorded.results.length, 'check')} of ${doc.implementation.name} ${doc.implementation.version} against ${cfg.target ?? `the gateway started by --gateway-cmd`} (seed ${cfg.seed}, profile ${cfg.profile})`);
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
  assertDistinct(dirs);
  const named = dirs.map((d) => ({ name: d, report: readReport(d) }));
  const { report, notes } = mergeReports(named, { force: opts.force, order });
  for (const n of notes) io.err(`gw-conformance: merge-reports --force: ${n}`);
  // As in run: `github` is added in GitHub Actions, and writes the job summary GITHUB_STEP_SUMMARY names.
  const names = reportersFor(opts.reporter ?? [...DEFAULT_REPORTERS], io.env);
  const stepSummary = names.includes('github') ? io.env.GITHUB_STEP_SUMMARY || undefined : undefined;
  io.out(`merge-reports: ${plural(named.length, 'report')}, ${plural(report.results.length, 'check')}`);
  for (const l of loadShardLines(report)) io.out(`merge-reports: ${l}`);
  writeReports(report, names, opts.out, io.out, { junitFormat: opts.junitFormat, stepSummary });
  return report.exitCode;
}
