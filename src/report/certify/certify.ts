// The vendor conformance report (`gw-conformance certify`) and its check (`verify`). A folder
// in the manner of the Kubernetes Gateway API conformance reports: conformance-report.yaml
// (who, what, with which harness and catalog, the verdicts per profile, the waivers, the seed
// and the transcript digest), the run's report.json, junit.xml and report.html, the transcript
// (one line per exchange) and a README with the exact command that reproduces it.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import YAML, { YAMLError } from 'yaml';
import { HarnessError } from '../../core/errors.js';
import { yamlErrorLine } from '../../core/yaml-error.js';
import { readText, ROOT, rootPath, VERSION } from '../../core/paths.js';
import { shellQuote } from '../run/replay.js';
import { capabilityMarkdown, cellsOf, type CapabilityCell } from '../../core/capabilities.js';
import type { CheckResult, ExitCode, RunReport } from '../shared/types.js';
import type { CanonicalExchange } from './transcript.js';
import { plural } from '../../core/words.js';

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (a: Ajv) => Ajv;

export const CONFORMANCE_SCHEMA_VERSION = '1.1.0';
export const CONFORMANCE_FILE = 'conformance-report.yaml';
export const TRANSCRIPT_FILE = 'transcript.jsonl';

export interface Implementation {
  name: string;
  version: string;
  organization?: string;
  url?: string;
  contact?: string;
}

export type TranscriptLine = { check: string; n: number } & CanonicalExchange;

export interface ConformanceReport {
  apiVersion: 'gw-conformance.dev/v1';
  kind: 'ConformanceReport';
  reportSchemaVersion: string;
  date: string;
  harness: { name: 'gw-conformance'; version: string; integrity: { algorithm: 'sha512'; of: 'package-tarball' | 'dist-files'; value: string; files?: number } };
  catalog: { path: 'catalog/requirements.json'; version: string; sha256: string; requirements: number };
  implementation: Implementation;
  declared: { features: string[]; profiles: string[] };
  profiles: ProfileResult[];
  /** The capability matrix's cells, when the run built it (1.1.0). */
  capabilities?: CapabilityCell[];
  waivers: { source?: string; applied: unknown[]; expired: unknown[]; unused: unknown[] };
  seed: number;
  /** Run settings as gwc.yaml keys: verify runs with exactly these. */
  settings: Record<string, unknown>;
  transcript: { digest: string; algorithm: string; exchanges: number; file: 'transcript.jsonl' };
  runReport: { file: 'report.json'; schemaVersion: string; target: string; exitCode: ExitCode };
  reproduce: { verify: string; run: string; certify?: string };
}

const BUCKETS = {
  passed: ['pass'],
  failed: ['fail'],
  skipped: ['skip'],
  waived: ['waived'],
  flaky: ['flaky'],
  warned: ['warn'],
  info: ['info'],
  timedOut: ['timeout'],
  errored: ['error'],
} as const satisfies Record<string, ReadonlyArray<CheckResult['outcome']>>;

export interface ProfileResult {
  name: string;
  result: 'success' | 'partial' | 'failure';
  summary: string;
  statistics: Record<keyof typeof BUCKETS | 'total', number>;
  checks: Record<keyof typeof BUCKETS, string[]>;
}

/**
 * success: nothing failed the run and every check ran and held (a SHOULD or INFO finding is
 * listed, not failing); partial: nothing failed the run, but checks were skipped (a feature not
 * declared), waived or flaky; failure: the run failed (exit code 1 or 2).
 */
export function profileResult(report: RunReport): ProfileResult {
  const checks = Object.fromEntries(Object.entries(BUCKETS).map(([k, outs]) => [k, report.results.filter((r) => (outs as readonly string[]).includes(r.outcome)).map((r) => r.id)])) as ProfileResult['checks'];
  const statistics = { total: report.results.length, ...Object.fromEntries(Object.entries(checks).map(([k, v]) => [k, v.length])) } as ProfileResult['statistics'];
  const result = report.exitCode !== 0 ? 'failure' : checks.skipped.length || checks.waived.length || checks.flaky.length ? 'partial' : 'success';
  const summary =
    result === 'failure'
      ? `${statistics.failed} failed, ${statistics.timedOut} timed out, ${statistics.flaky} flaky, ${plural(statistics.errored, 'harness error')} of ${statistics.total}`
      : result === 'partial'
        ? `no failure; ${statistics.skipped} skipped, ${statistics.waived} waived, ${statistics.flaky} flaky (allowed) of ${statistics.total}`
        : statistics.total === 1 ? 'the one check held' : `all ${statistics.total} checks held`;
  return { name: report.profile, result, summary, statistics, checks };
}

/** Files under `dir` (recursively), sorted by path. */
function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

/**
 * The harness's integrity: the npm integrity of the installed package tarball when the
 * installing project's lock records it (node_modules/.package-lock.json), else SHA-512 over the
 * compiled files the package ships (dist/, .js only, path and content, sorted by path).
 */
export function harnessIntegrity(root = ROOT): ConformanceReport['harness']['integrity'] {
  const lock = join(dirname(root), '.package-lock.json');
  if (dirname(root).endsWith(`${sep}node_modules`) && existsSync(lock)) {
    try {
      const entry = (JSON.parse(readFileSync(lock, 'utf8')) as { packages?: Record<string, { version?: string; integrity?: string }> }).packages?.['node_modules/gw-conformance'];
      if (entry?.integrity?.startsWith('sha512-') && entry.version === VERSION) return { algorithm: 'sha512', of: 'package-tarball', value: entry.integrity };
    } catch {
      // An unreadable lock: fall back to the files.
    }
  }
  const dist = join(root, 'dist');
  if (!existsSync(dist)) throw new HarnessError('BAD_CONFIG', `certify: the harness has no compiled files under ${dist} to fingerprint (run \`npm run build\`)`);
  const files = walk(dist).filter((f) => f.endsWith('.js'));
  const h = createHash('sha512');
  for (const f of files) h.update(`${relative(root, f).split(sep).join('/')}\n`).update(readFileSync(f)).update('\n');
  return { algorithm: 'sha512', of: 'dist-files', value: `sha512-${h.digest('base64')}`, files: files.length };
}

export function catalogInfo(): ConformanceReport['catalog'] {
  const bytes = readFileSync(rootPath('catalog', 'requirements.json'));
  const parsed = JSON.parse(bytes.toString('utf8')) as { requirements: unknown[] };
  return { path: 'catalog/requirements.json', version: `${VERSION} (shipped with the harness)`, sha256: createHash('sha256').update(bytes).digest('hex'), requirements: parsed.requirements.length };
}

const startsGateway = (s: Record<string, unknown>) => Boolean(s['gateway-cmd'] || s['gateway-image']); // recorded by src/config/recorded-launch.ts
/** The command-line form of recorded settings (gwc.yaml keys); a list with an item holding a comma gives one flag per item. */
export function settingsFlags(settings: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(settings)) {
    if (v === undefined || v === null) continue;
    if (typeof v === 'boolean') {
      if (v) out.push(`--${k}`);
    } else if (Array.isArray(v)) {
      if (v.some((x) => String(x).includes(','))) for (const x of v) out.push(`--${k}`, String(x));
      else if (v.length) out.push(`--${k}`, v.join(','));
    } else if (typeof v === 'object') {
      for (const [a, b] of Object.entries(v as Record<string, string>)) out.push(`--${k}`, `${a}=${b}`);
    } else out.push(`--${k}`, String(v));
  }
  return out;
}

let validator: (((d: unknown) => boolean) & { errors?: Array<{ instancePath: string; message?: string }> | null }) | undefined;

/** Checks a conformance report against its schema; the error names the path. */
export function conformanceErrors(doc: unknown): string | null {
  if (!validator) {
    const ajv = new Ajv({ allErrors: true });
    addFormats(ajv);
    validator = ajv.compile(JSON.parse(readText('src', 'report', 'certify', 'conformance-report.schema.json')));
  }
  if (validator(doc)) return null;
  const e = validator.errors![0];
  return `${e.instancePath || '/'}: ${e.message}`;
}

export interface CertifyInput {
  report: RunReport;
  transcript: TranscriptLine[];
  digest: string;
  implementation: Implementation;
  settings: Record<string, unknown>;
  /** The certify command as given (credential flags removed). */
  argv: string[];
  date?: Date;
}

export function conformanceReport(i: CertifyInput): ConformanceReport {
  const r = i.report;
  const aim = startsGateway(i.settings) ? [] : ['--target', r.target]; // a recorded gateway command starts it again, on new ports
  const verify = ['gw-conformance', 'verify', '.', ...aim].map(shellQuote).join(' ');
  const run = ['gw-conformance', 'run', ...aim, ...settingsFlags(i.settings)].map(shellQuote).join(' ');
  const doc: ConformanceReport = {
    apiVersion: 'gw-conformance.dev/v1',
    kind: 'ConformanceReport',
    reportSchemaVersion: CONFORMANCE_SCHEMA_VERSION,
    date: (i.date ?? new Date(r.finishedAt)).toISOString(),
    harness: { name: 'gw-conformance', version: r.harness.version, integrity: harnessIntegrity() },
    catalog: catalogInfo(),
    implementation: Object.fromEntries(Object.entries(i.implementation).filter(([, v]) => v !== undefined)) as unknown as Implementation,
    declared: { features: [...r.declared.protocols], profiles: [r.profile] },
    profiles: [profileResult(r)],
    ...(cellsOf(r.results).length ? { capabilities: cellsOf(r.results) } : {}),
    waivers: r.waivers ? { source: r.waivers.source, applied: r.waivers.applied, expired: r.waivers.expired, unused: r.waivers.unused } : { applied: [], expired: [], unused: [] },
    seed: r.seed,
    settings: i.settings,
    transcript: { digest: i.digest, algorithm: 'sha256 over one line per exchange (check, index, kind, SHA-256 of each masked part), checks in id order', exchanges: i.transcript.length, file: 'transcript.jsonl' },
    runReport: { file: 'report.json', schemaVersion: r.schemaVersion, target: r.target, exitCode: r.exitCode },
    reproduce: { verify, run, certify: ['gw-conformance', ...i.argv].map(shellQuote).join(' ') },
  };
  const bad = conformanceErrors(doc);
  if (bad) throw new Error(`harness bug: the conformance report does not match its schema at ${bad}`);
  return doc;
}

/** `signed`: certify signs the folder (statement.intoto.jsonl, src/report/certify/statement.ts). */
export function readmeText(doc: ConformanceReport, signed = false): string {
  const p = doc.profiles[0];
  const impl = doc.implementation;
  return [
    `# Conformance report: ${impl.name} ${impl.version}`,
    '',
    `Tested with gw-conformance ${doc.harness.version} on ${doc.date}${impl.organization ? ` for ${impl.organization}` : ''}${impl.url ? ` (${impl.url})` : ''}.`,
    '',
    `Profile \`${p.name}\`: **${p.result}** (${p.summary}). Declared features: ${doc.declared.features.join(', ') || 'none'}.`,
    '',
    '| outcome | checks |',
    '|---|---|',
    ...Object.entries(p.statistics).map(([k, v]) => `| ${k} | ${v} |`),
    '',
    ...capabilityMarkdown(doc.capabilities ?? []),
    '## Files',
    '',
    '- `conformance-report.yaml`: the summary a reviewer reads (schema: `src/report/certify/conformance-report.schema.json` in the harness).',
    '- `report.json`: every check with its evidence (the RunReport); `junit.xml` and `report.html` render it.',
    `- \`transcript.jsonl\`: one line per exchange (masked hashes of both sides); its digest is \`${doc.transcript.digest}\`.`,
    ...(signed ? ['- `statement.intoto.jsonl`: an in-toto statement of these files and their SHA-256 with the verdicts, signed (DSSE, Ed25519); `verify . --public-key FILE` checks it offline with the signer\'s public key.'] : []),
    '',
    '## Reproduce',
    '',
    startsGateway(doc.settings) ? 'The harness starts the gateway again with the recorded command (`settings.gateway-cmd` or `settings.gateway-image`), on ports of its own; in this folder:' : 'Start the gateway as it was configured for this run (forwarding to the recording upstream at the address in `settings.upstream-listen`), then, in this folder:',
    '',
    '```sh',
    `${doc.reproduce.verify}`,
    '```',
    '',
    'verify runs the same checks with the same seed and settings and says, check by check, whether each verdict is reproduced, and whether the transcript digest matches (exit 0 reproduced, 1 not, 2 could not run). The same run without the comparison:',
    '',
    '```sh',
    `${doc.reproduce.run}`,
    '```',
    '',
    ...(doc.reproduce.certify ? ['This folder was written by:', '', '```sh', doc.reproduce.certify, '```', ''] : []),
  ].join('\n');
}

/** Writes conformance-report.yaml, transcript.jsonl and README.md (the run's report files are written by the reporters). */
export function writeCertifyFiles(dir: string, doc: ConformanceReport, transcript: TranscriptLine[], signed = false): string[] {
  mkdirSync(dir, { recursive: true });
  const files = [join(dir, CONFORMANCE_FILE), join(dir, TRANSCRIPT_FILE), join(dir, 'README.md')];
  writeFileSync(files[0], `# gw-conformance conformance report (schema ${CONFORMANCE_SCHEMA_VERSION})\n${YAML.stringify(doc, { lineWidth: 0 })}`);
  writeFileSync(files[1], transcript.map((l) => JSON.stringify(l)).join('\n') + (transcript.length ? '\n' : ''));
  writeFileSync(files[2], readmeText(doc, signed));
  return files;
}

/** Reads a certify folder back: the conformance report (schema-checked) and the transcript. */
export function readCertifyDir(dir: string): { doc: ConformanceReport; transcript: TranscriptLine[] } {
  const file = join(dir, CONFORMANCE_FILE);
  const doc = readOf(file, (t) => YAML.parse(t) as ConformanceReport);
  const bad = conformanceErrors(doc);
  if (bad) throw new HarnessError('BAD_REPORT', `${file}: not a conformance report: ${bad}`);
  const tfile = join(dir, TRANSCRIPT_FILE);
  return { doc, transcript: readOf(tfile, (t) => t.split('\n').filter(Boolean).map((l) => JSON.parse(l) as TranscriptLine)) };
}

/** A file of the folder, read and made into what `as` makes of it; what cannot be is one line naming the file and why (YAML's with its line and column). */
function readOf<T>(file: string, as: (text: string) => T): T {
  try {
    return as(readFileSync(file, 'utf8'));
  } catch (e) {
    if (e instanceof YAMLError) throw new HarnessError('BAD_REPORT', yamlErrorLine(file, e));
    throw new HarnessError('BAD_REPORT', `${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message.split('\n')[0]})`);
  }
}

/** A check's verdict as verify compares it: a waived result by the outcome it had. */
export const verdictOf = (r: CheckResult) => r.waiver?.waivedOutcome ?? r.outcome;

export interface VerdictComparison {
  id: string;
  recorded: string | null;
  now: string | null;
  reproduced: boolean;
  message: string;
}

export function compareVerdicts(recorded: RunReport, now: RunReport): VerdictComparison[] {
  const after = new Map(now.results.map((r) => [r.id, r]));
  const out: VerdictComparison[] = recorded.results.map((r) => {
    const n = after.get(r.id);
    after.delete(r.id);
    const a = verdictOf(r);
    const b = n ? verdictOf(n) : null;
    return { id: r.id, recorded: a, now: b, reproduced: a === b, message: !n ? 'not run this time' : a === b ? '' : n.message.split('\n')[0] };
  });
  for (const n of after.values()) out.push({ id: n.id, recorded: null, now: verdictOf(n), reproduced: false, message: 'not in the recorded run' });
  return out;
}
