// Replay of a failed check, so whoever reads a failure can reproduce it at once: the command
// that runs it again alone with the same seed, and a curl command line for each request the
// client sent, the credential as an environment variable placeholder (never its value). The
// runner records what the client sent (`evidence.sent`); withReplay turns that into
// `evidence.replay` when the report is written.

import { isSizedBody, type AuthStyle, type GwRequest } from '../../client/gateway.js';
import { MASK, maskHeaders } from '../../core/mask.js';
import { credentialHeader } from '../../core/protocols.js';
import { DEFAULT_CREDENTIAL, protocolOfPath } from '../../protocols/index.js';
import type { CheckResult, RunReport } from '../shared/types.js';

/** The environment variable the CLI reads the gateway credential from. */
export const TOKEN_ENV = 'GWC_TOKEN';
/** Bodies longer than this are not kept in the report; the curl line says so. */
export const MAX_REPLAY_BODY = 64 * 1024;
const CASE_HEADER = 'x-gwc-case';

/** A request as the client sent it, without the credential (only how it was attached). */
export interface SentRequest {
  method: string;
  path: string;
  auth: AuthStyle;
  headers: Array<[string, string]>;
  /** The body as text, or null when there was none or it was too long to keep. */
  body: string | null;
  bodyBytes: number;
}

/** What the runner keeps of a request a check sent (credential headers masked, long bodies dropped). */
export function recordSent(req: GwRequest, method = 'GET'): SentRequest {
  const bytes = req.body === undefined ? 0 : typeof req.body === 'string' ? Buffer.byteLength(req.body) : req.body.length;
  // A long body is only counted, never copied.
  const raw = req.body === undefined || bytes > MAX_REPLAY_BODY ? null : typeof req.body === 'string' ? Buffer.from(req.body) : isSizedBody(req.body) ? Buffer.concat([...req.body.chunks()]) : req.body;
  const headers = maskHeaders([...(req.headers ?? []), ...(req.caseToken ? ([[CASE_HEADER, req.caseToken]] as Array<[string, string]>) : [])]);
  return {
    method: req.method ?? method,
    path: req.path,
    auth: req.auth ?? 'bearer',
    headers,
    body: raw === null ? null : raw.toString('utf8'),
    bodyBytes: bytes,
  };
}

/** One word for a POSIX shell, single-quoted unless it is plainly safe. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

const FLAGS_REPLACED = new Set(['--only', '--skip', '--seed', '--token']);

/** Where a replay command writes its reports (a folder per check, below the working directory). */
export const REPLAY_OUT = 'gw-conformance-reproduce';

/**
 * The CLI invocation (through npx) that runs one check again: the run's own arguments with --only, --skip,
 * --seed and --token removed, then `--only ID --seed S`. The credential comes from GWC_TOKEN.
 * The run's --out is left out and REPLAY_OUT/<id> put in its place: the reports of the replay go to
 * a folder of their own, never over the report the command was read from (nor to the default
 * folder, which may be that report's), and a folder of the machine that ran it is never named.
 */
export function replayCommand(argv: string[], id: string, seed: number): string {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const name = a.split('=')[0];
    if (FLAGS_REPLACED.has(name)) {
      if (!a.includes('=')) i++;
      continue;
    }
    if (name === '--out') {
      if (!a.includes('=')) i++;
      continue;
    }
    // Headers the user added are masked like credentials; a value that only names environment variables stays.
    if (name === '--header') {
      const inline = a.startsWith('--header=');
      const spec = inline ? a.slice('--header='.length) : argv[++i];
      if (spec === undefined) break;
      const masked = maskHeaderSpec(spec);
      kept.push(...(inline ? [`--header=${masked}`] : ['--header', masked]));
      continue;
    }
    kept.push(a);
  }
  // `npx` finds the harness where the docs install it (a project's devDependencies) and a global install alike.
  return ['npx', 'gw-conformance', ...kept, '--only', id, '--seed', String(seed), '--out', `${REPLAY_OUT}/${id}`].map(shellQuote).join(' ');
}

/** `[protocol:]name=value` with its value masked, unless it is only `${VAR}` and `{upstream}` references. */
export function maskHeaderSpec(spec: string): string {
  const eq = spec.indexOf('=');
  if (eq < 0) return spec;
  const value = spec.slice(eq + 1);
  return /^(\$\{[A-Za-z_][A-Za-z0-9_]*\}|\{upstream\})+$/.test(value) ? spec : `${spec.slice(0, eq)}=${MASK}`;
}

/** A protocol's targeting as the report shows it (header names only). */
type ReportTarget = { basePath: string; headers: string[]; credential: string };

/**
 * curl for a request the client sent to the target, the credential as "$GWC_TOKEN". With the
 * protocol's targeting: under its base path, in its credential style, with its added headers
 * (their values masked: the user puts them back).
 */
export function curlCommand(target: string, sent: SentRequest, t?: ReportTarget): string {
  const p = protocolOfPath(sent.path);
  const r: SentRequest = t && t.credential !== DEFAULT_CREDENTIAL[p] && sent.auth === DEFAULT_CREDENTIAL[p] ? { ...sent, auth: t.credential as AuthStyle } : sent;
  const base = target.replace(/\/+$/, '') + (t && t.basePath !== '/' ? t.basePath : '');
  const key = `"$${TOKEN_ENV}"`;
  let url = shellQuote(`${base}${r.path}`);
  if (r.auth === 'key-query') url = `${shellQuote(`${base}${r.path}${r.path.includes('?') ? '&' : '?'}key=`)}${key}`;
  const parts = ['curl', '-sS', '-N', '-X', shellQuote(r.method), url];
  const credential = credentialHeader(r.auth, `$${TOKEN_ENV}`);
  if (credential) parts.push('-H', `"${credential[0]}: ${credential[1]}"`);
  for (const k of t?.headers ?? []) parts.push('-H', shellQuote(`${k}: ${MASK}`));
  for (const [k, v] of r.headers) parts.push('-H', shellQuote(`${k}: ${v}`));
  if (r.body !== null) parts.push('--data-binary', shellQuote(r.body));
  else if (r.bodyBytes > 0) parts.push('--data-binary', '@body', `# the ${r.bodyBytes}-byte body is not kept in the report`);
  return parts.join(' ');
}

const REPLAYED = new Set<CheckResult['outcome']>(['fail', 'warn', 'info', 'error', 'timeout']);

function isSent(v: unknown): v is SentRequest {
  const r = v as SentRequest;
  return typeof r === 'object' && r !== null && typeof r.method === 'string' && typeof r.path === 'string' && Array.isArray(r.headers);
}

/** Adds `evidence.replay` (the command, and a curl line per request sent) to every failed check. */
export function withReplay(report: RunReport, argv: string[]): RunReport {
  const results = report.results.map((r) => {
    if (!REPLAYED.has(r.outcome)) return r;
    const sent = Array.isArray(r.evidence.sent) ? r.evidence.sent.filter(isSent) : [];
    const targeting = report.targeting as Record<string, ReportTarget> | undefined;
    const replay = {
      command: replayCommand(argv, r.id, report.seed),
      curl: sent.map((s) => curlCommand(report.target, s, targeting?.[protocolOfPath(s.path)])),
      credential: sent.length && sent.every((s) => s.auth === 'none') ? 'the run sent no credential: neither do the curl lines' : `the credential is read from $${TOKEN_ENV}${Object.values(targeting ?? {}).some((t) => t.headers.length) ? '; the headers you added show as ${MASK} in the curl lines: put their values back' : ''}`,
    };
    return { ...r, evidence: { ...r.evidence, replay } };
  });
  return { ...report, results };
}
