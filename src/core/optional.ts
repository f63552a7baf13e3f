// The packages a default install leaves out. The core (run, demo, mock, lint-config, the
// reports) needs only the package's dependencies; two features need more, declared in
// package.json as optional peer dependencies so that `npm install gw-conformance` stays small:
// a gateway started in a container (--gateway-image) and the apps profile (its mock IdP and
// collector, the reference apps gateway's store and traces, the checks' token forging), plus
// the PostgreSQL client for an apps store on a real server, and the SDKs the client profile drives. Those packages are imported only
// when the feature runs, after `requireOptional` has checked they are there: a missing one ends
// the command with one line naming the packages and the install command (exit 2).
// A dependency that is always installed but loaded only on first use is not one of these: fzstd
// (zstd bodies on a Node without zstd in zlib) is required where it is used, in src/core/zstd.ts.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HarnessError } from './errors.js';
import { readText, ROOT } from './paths.js';

/** Each feature, as the user names it, and the optional packages it imports. */
export const OPTIONAL_FEATURES = {
  image: { use: '--gateway-image', packages: ['testcontainers'] },
  apps: {
    use: 'the apps profile (--profile apps, apps-config, reference --apps)',
    packages: ['jose', 'oauth2-mock-server', '@electric-sql/pglite', '@opentelemetry/api', '@opentelemetry/sdk-trace-base', '@opentelemetry/exporter-trace-otlp-http', '@opentelemetry/resources', '@opentelemetry/otlp-transformer'],
  },
  postgres: { use: 'an apps store on PostgreSQL (--apps-postgres-url, store.postgres_url)', packages: ['pg'] },
  tls: { use: '--upstream-tls, and a demo fault whose gateway speaks HTTP/2 upstream (the recording upstream\'s throw-away CA)', packages: ['node-forge'] },
  // The official SDKs the client profile drives as real clients (--clients).
  'anthropic-sdk': { use: 'the client profile with --clients anthropic-sdk', packages: ['@anthropic-ai/sdk'] },
  openai: { use: 'the client profile with --clients openai, openai-responses or openai-realtime', packages: ['openai'] },
  genai: { use: 'the client profile with --clients genai or genai-live', packages: ['@google/genai'] },
  'anthropic-vertex': { use: 'the client profile with --clients anthropic-vertex', packages: ['@anthropic-ai/vertex-sdk'] },
  // The official MCP SDK, which the mcp protocol's recording server and client are built on.
  mcp: { use: 'the mcp protocol (--protocols mcp)', packages: ['@modelcontextprotocol/sdk'] },
} as const;

export type OptionalFeature = keyof typeof OPTIONAL_FEATURES;

/** The versions the harness is tested with: package.json's peer dependencies (one place for them). */
export const peerVersions = (): Record<string, string> => (JSON.parse(readText('package.json')) as { peerDependencies?: Record<string, string> }).peerDependencies ?? {};

/** The file a bare specifier resolves to from here, or null when the package is not installed. */
export function resolvePackage(name: string): string | null {
  try {
    // import.meta.resolve (Node >= 20.6) resolves as import() does, loader hooks included.
    if (typeof import.meta.resolve === 'function') return fileURLToPath(import.meta.resolve(name));
    return createRequire(import.meta.url).resolve(name);
  } catch {
    return null;
  }
}

/** The version of an installed package (its package.json above the file it resolves to), or null. */
export function installedVersion(name: string): string | null {
  const file = resolvePackage(name);
  for (let dir = file ? dirname(file) : ''; dir && dir !== dirname(dir); dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (!existsSync(pkg)) continue;
    const json = JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string; version?: string };
    if (json.name === name) return json.version ?? null;
  }
  return null;
}

/**
 * True when the harness is a global install (`npm install --global`): the folder holding its
 * node_modules is no project (no package.json), so the packages must go there too (--global).
 */
function installedGlobally(): boolean {
  const parts = ROOT.split(sep);
  const i = parts.lastIndexOf('node_modules');
  return i > 0 && !existsSync(join(parts.slice(0, i).join(sep) || sep, 'package.json'));
}

/** The one-line error for a feature whose packages `missing` are not installed. */
export function missingPackages(feature: OptionalFeature, missing: readonly string[]): HarnessError {
  const versions = peerVersions();
  const plural = missing.length > 1 ? 's' : '';
  const install = missing.map((n) => (versions[n] ? `${n}@${versions[n]}` : n)).join(' ');
  const npm = installedGlobally() ? 'npm install --global' : 'npm install';
  return new HarnessError('MISSING_PACKAGE', `${OPTIONAL_FEATURES[feature].use} needs the optional package${plural} ${missing.join(', ')}, not installed: ${npm} ${install}`);
}

/** Throws the one-line error unless every package of `feature` resolves. */
export function requireOptional(feature: OptionalFeature): void {
  const missing = OPTIONAL_FEATURES[feature].packages.filter((n) => resolvePackage(n) === null);
  if (missing.length) throw missingPackages(feature, missing);
}

/** Runs `load` (a dynamic import of the feature's packages) after the check; a package that still fails to resolve gets the same one line. */
export async function importOptional<T>(feature: OptionalFeature, load: () => Promise<T>): Promise<T> {
  requireOptional(feature);
  try {
    return await load();
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const named = OPTIONAL_FEATURES[feature].packages.filter((n) => err.code === 'ERR_MODULE_NOT_FOUND' && err.message.includes(`'${n}`));
    if (named.length) throw missingPackages(feature, named);
    throw e;
  }
}
