// What the lint rules share: reading untyped YAML values (objects, lists, strings), showing a
// key path, telling a literal secret from a reference, and classifying URLs (loopback, cloud
// metadata). Also the shape of a rule check, as the registry in checks.ts holds them.
import { isRecord } from '../core/json.js';
import { hasRef } from './schema.js';
import type { KeyPath } from './source.js';

export type Obj = Record<string, unknown>;

/** Reports one finding of the rule the check is registered under. */
export type Report = (path: KeyPath, message: string, hint: string) => void;
/** One rule of one dialect: reads the whole (parsed) file and reports what breaks the rule. */
export type RuleCheck = (root: Obj, report: Report) => void;

export const isObj: (v: unknown) => v is Obj = isRecord;
export const obj = (v: unknown): Obj => (isObj(v) ? v : {});
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const show = (p: KeyPath) => `\`${p.reduce<string>((s, x) => (typeof x === 'number' ? `${s}[${x}]` : s ? `${s}.${x}` : x), '')}\``;

/** The whole value is one reference: `${VAR}` or `${file:/path}`. */
export const isWholeRef = (s: string) => /^\$\{(\w+|file:[^}]+)\}$/.test(s.trim());

/** Strings that read as a credential: well-known token shapes, or long random-looking text. */
export function looksSecret(s: string): boolean {
  const v = s.trim();
  if (/^(sk-|sk_|pk_|rk_|ghp_|gho_|github_pat_|xox[abpr]-|AKIA|ASIA|AIza|ya29\.|eyJ)/.test(v)) return true;
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(v)) return true;
  if (/^(bearer|basic|token)\s+\S{8,}$/i.test(v)) return true;
  if (/^[a-z]+:\/\/[^/\s:@]*:[^@\s]+@/i.test(v)) return true; // user:password@ in a URL
  if (v.length < 20 || /\s/.test(v)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((r) => r.test(v)).length;
  return classes >= 3 && new Set(v).size >= 12;
}

/** A literal secret: no reference at all, or references beside text that itself reads as a secret. */
export function literalSecret(v: unknown): boolean {
  if (typeof v !== 'string' || v.length === 0) return false;
  if (isWholeRef(v)) return false;
  if (hasRef(v)) return looksSecret(v.replace(/\$\{(\w+|file:[^}]+)\}/g, '').replace(/^(bearer|basic|token)\s*$/i, ''));
  return true;
}

const SENSITIVE_HEADER = /^(authorization|proxy-authorization|cookie)$|api[-_]?key|token|secret|password|credential|signature/i;

export function headerSecret(name: string, v: unknown): boolean {
  if (typeof v !== 'string') return false;
  if (SENSITIVE_HEADER.test(name)) return literalSecret(v);
  return !hasRef(v) && looksSecret(v);
}

export function urlOf(s: unknown): URL | undefined {
  return typeof s === 'string' && !hasRef(s) && URL.canParse(s) ? new URL(s) : undefined;
}
export const bareHost = (u: URL) => u.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
export function isLoopback(u: URL): boolean {
  const h = bareHost(u);
  return h === 'localhost' || h.endsWith('.localhost') || /^127\./.test(h) || h === '::1' || /^::ffff:(127\.|7f)/.test(h);
}
export function isMetadata(u: URL): boolean {
  const h = bareHost(u);
  return /^169\.254\./.test(h) || h === 'metadata.google.internal' || h === 'metadata' || /^fd00:ec2::/.test(h) || h === '100.100.100.200';
}

/** A URL the gateway would refuse to fetch: loopback or cloud metadata (CFG-SSRF-1). */
export function refusedUrl(v: unknown): boolean {
  const u = urlOf(v);
  return !!u && (isLoopback(u) || isMetadata(u));
}
/** A URL the gateway fetches in clear text: http, and not one it refuses anyway (CFG-TLS-1, CFG-TLS-2). */
export function clearTextUrl(v: unknown): boolean {
  const u = urlOf(v);
  return !!u && !refusedUrl(v) && u.protocol !== 'https:';
}

/** A host name (or bare IPv6 address) that is loopback; false when it is no valid host. */
export function hostIsLoopback(h: string): boolean {
  try {
    return isLoopback(new URL(`http://${h.includes(':') && !h.startsWith('[') ? `[${h}]` : h}`));
  } catch {
    return false;
  }
}

/** CFG-URL-2: the public URL user devices reach. */
export function publicUrlProblems(report: Report, path: KeyPath, v: unknown): void {
  if (typeof v !== 'string' || hasRef(v)) return;
  const u = urlOf(v);
  if (!u) return report(path, `${show(path)} is not an absolute URL: user devices need the full https:// address`, 'write the externally reachable origin, e.g. https://claude-gateway.corp.example');
  const h = bareHost(u);
  if (isLoopback(u) || h === '0.0.0.0' || h === '::') return report(path, `${show(path)} is a loopback, localhost or unspecified address: user devices cannot reach it`, 'use the hostname users reach on the controlled network (VPN, private DNS)');
  if (u.protocol !== 'https:') report(path, `${show(path)} is not https: sign-in redirects and bearer tokens would travel in clear text`, 'serve the gateway over https and write the https:// address');
}

/** CFG-REF-1: an upstream name declared twice. */
export function duplicateNames(report: Report, names: Array<{ name: string; path: KeyPath }>): void {
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n.name)) report(n.path, `upstream name \`${n.name}\` is declared twice, so references to it are ambiguous`, 'give each upstream a distinct `name:`');
    seen.add(n.name);
  }
}

/** A group that routing or a policy names, and where. */
export interface UsedGroup {
  group: string;
  path: KeyPath;
}

/** The groups `allowed_groups` lists (trimmed, non-empty); undefined when the key is no list. */
export function allowedSet(allowed: unknown): Set<string> | undefined {
  if (!Array.isArray(allowed)) return undefined;
  return new Set(allowed.filter((g): g is string => typeof g === 'string').map((g) => g.trim()).filter(Boolean));
}

/** CFG-GROUP-1: `allowed_groups` is an empty list while routing or policies name groups. */
export function emptyAllowedGroups(report: Report, allowedPath: KeyPath, allowed: unknown, used: UsedGroup[]): void {
  if (used.length > 0 && allowedSet(allowed)?.size === 0)
    report(allowedPath, `${show(allowedPath)} is an empty list while ${show(used[0].path)} routes by group: the list names no group that may sign in`, 'list the groups that may sign in, or remove the key to let every authenticated user in');
}

/** CFG-GROUP-2: a group that routing or a policy names is not among `allowed_groups`. */
export function groupsNotAllowed(report: Report, allowedPath: KeyPath, allowed: unknown, used: UsedGroup[]): void {
  const set = allowedSet(allowed);
  if (!set || set.size === 0) return;
  for (const u of used)
    if (!set.has(u.group)) report(u.path, `group \`${u.group}\` is not in ${show(allowedPath)}: its members cannot sign in, so this never applies`, `add \`${u.group}\` to ${show(allowedPath)} or remove it here`);
}

/** The string values of a YAML tree, with their key paths. */
export function walkStrings(v: unknown, path: (string | number)[], f: (path: KeyPath, s: string) => void): void {
  if (typeof v === 'string') f(path, v);
  else if (Array.isArray(v)) v.forEach((x, i) => walkStrings(x, [...path, i], f));
  else if (isObj(v)) for (const [k, x] of Object.entries(v)) walkStrings(x, [...path, k], f);
}
