// certify: the vendor conformance report (and what verify reads back of it: the recorded
// settings, the key's text). The suite itself is run by the caller (cli/profiles/upstream.ts wires
// the checks and the recording upstream), so this file stands alone.
import type { KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { RunConfig } from '../../src/config/config.js';
import { HarnessError } from '../../src/core/errors.js';
import { NO_CREDENTIAL, type ReporterName } from '../../src/config/options.js';
import type { RunReport } from '../../src/report/shared/types.js';
import { writeReports } from '../../src/reporters/index.js';
import { withReplay } from '../../src/report/run/replay.js';
import { withFixes } from '../../src/runner/fixes.js';
import { CHECKS } from '../../suites/index.js';
import { transcriptDigest, transcriptLines, type Transcript } from '../../src/report/certify/transcript.js';
import { conformanceReport, writeCertifyFiles, type ConformanceReport, type Implementation } from '../../src/report/certify/certify.js';
import { predicateOf, signingKeyOf, STATEMENT_FILE, writeStatement } from '../../src/report/certify/statement.js';
import { secretsOf, type SuiteExtras } from '../../src/runner/run.js';
import { plural } from '../../src/core/words.js';
import { launchSettings } from '../../src/config/recorded-launch.js';

export type Io = { out: (s: string) => void; err: (s: string) => void; env: NodeJS.ProcessEnv };
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
    // How the gateway was reached: the command that started it (src/config/recorded-launch.ts), or the upstream address.
    ...launchSettings(cfg),
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
  const files = writeReports(withFixes(withReplay(report, clean), CHECKS), ['json', 'junit', 'html', ...(cfg.reporter.includes('console') ? (['console'] as ReporterName[]) : [])], cfg.out, io.out, { junitFormat: cfg.junitFormat });
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
