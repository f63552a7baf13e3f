// Per-protocol targeting: where each protocol lives on the gateway (a base path), the request
// headers it needs (a provider header, the product's own key, the upstream URL), the credential
// style, and the path under which the gateway forwards to the upstream. From gwc.yaml's
// `protocols:` map and the --base-path / --header flags; applied by the gateway client to every
// request of the protocol, so every check honours it.
import { HarnessError } from '../core/errors.js';
import { DEFAULT_CREDENTIAL, DEFAULT_PROTOCOLS, PROTOCOLS, type AuthStyle, type Protocol } from '../protocols/index.js';

// The configuration's schema lists the credential styles; the tests tell protocols by path here.
export { CREDENTIAL_STYLES, DEFAULT_CREDENTIAL, protocolOfPath } from '../protocols/index.js';

export interface ProtocolTarget {
  /** Prefix on the gateway ('' = the host root). */
  basePath: string;
  /** Headers as the user wrote them (`${VAR}` and `{upstream}` not yet expanded). */
  headers: Array<[string, string]>;
  /** Replaces the protocol's default credential style; checks that try another style keep theirs. */
  credential?: AuthStyle;
  /** Prefix under which the gateway forwards this protocol to the upstream ('' = today's paths). */
  upstreamBasePath: string;
  /** The values the protocol's paths name (its record's `placeholders`: Vertex's project and region). */
  placeholders?: Record<string, string>;
}

export type Targeting = Record<Protocol, ProtocolTarget>;

/** The targeting with every header value expanded: what the client sends. */
export type ResolvedTargeting = Record<Protocol, Omit<ProtocolTarget, 'headers'> & { headers: Array<[string, string]> }>;

export const emptyTarget = (): ProtocolTarget => ({ basePath: '', headers: [], upstreamBasePath: '' });

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function protocolName(p: string, label: string): Protocol {
  if (!(PROTOCOLS as readonly string[]).includes(p)) throw new HarnessError('BAD_FLAG', `${label}: unknown protocol "${p}" (${PROTOCOLS.join(', ')})`);
  return p as Protocol;
}

/** A base path as given: it must start with `/`; a trailing `/` is dropped ('/' = the root). */
export function basePath(v: string, label: string): string {
  if (!v.startsWith('/')) throw new HarnessError('BAD_FLAG', `${label}: a base path starts with "/", got "${v}"`);
  if (/[?#\s]/.test(v)) throw new HarnessError('BAD_FLAG', `${label}: a base path has no query, fragment or space, got "${v}"`);
  return v.replace(/\/+$/, '');
}

function header(name: string, value: string, label: string): [string, string] {
  if (!HEADER_NAME.test(name)) throw new HarnessError('BAD_FLAG', `${label}: "${name}" is not a header name`);
  checkPlaceholders(value, label);
  return [name.toLowerCase(), value];
}

/** Header values may hold `${VAR}` and `{upstream}`; any other `{name}` is a mistake. */
function checkPlaceholders(value: string, label: string) {
  for (const m of value.matchAll(/(\$?)\{([^}]*)\}/g)) {
    if (m[1] === '$') {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(m[2])) throw new HarnessError('BAD_FLAG', `${label}: "\${${m[2]}}" is not an environment variable name`);
    } else if (m[2] !== 'upstream') throw new HarnessError('BAD_FLAG', `${label}: unknown placeholder "{${m[2]}}" (header values know {upstream} and \${VAR})`);
  }
}

/** `--base-path messages=/anthropic` (repeatable). */
export function parseBasePathFlag(v: string): [Protocol, string] {
  const eq = v.indexOf('=');
  if (eq <= 0) throw new HarnessError('BAD_FLAG', `--base-path: expected PROTOCOL=/path, got "${v}"`);
  return [protocolName(v.slice(0, eq).trim(), '--base-path'), basePath(v.slice(eq + 1).trim(), `--base-path ${v.slice(0, eq).trim()}`)];
}

/** `--header messages:x-provider=anthropic`, or `--header x-provider=anthropic` for every protocol. */
export function parseHeaderFlag(v: string): { protocols: Protocol[]; header: [string, string] } {
  const eq = v.indexOf('=');
  if (eq <= 0) throw new HarnessError('BAD_FLAG', `--header: expected [PROTOCOL:]NAME=VALUE, got "${v}"`);
  const left = v.slice(0, eq);
  const colon = left.indexOf(':');
  const protocols = colon >= 0 ? [protocolName(left.slice(0, colon).trim(), '--header')] : [...PROTOCOLS];
  const name = (colon >= 0 ? left.slice(colon + 1) : left).trim();
  return { protocols, header: header(name, v.slice(eq + 1), '--header') };
}

/** What gwc.yaml's `protocols:` map gives for one protocol (its schema checked the shape). */
export interface FileProtocol {
  'base-path'?: string;
  headers?: Record<string, string>;
  credential?: AuthStyle;
  'upstream-base-path'?: string;
}

/**
 * The protocols declared and their targeting, from the file's `protocols:` (a list, or a map
 * whose `false` entries are not served) and the flags (a --protocols list replaces the file's
 * list; --base-path and --header add to or replace the file's settings).
 */
export function resolveTargeting(
  fileProtocols: unknown,
  flagProtocols: Protocol[] | undefined,
  basePaths: string[],
  headers: string[],
): { declared: Protocol[]; targeting: Targeting } {
  const targeting = Object.fromEntries(PROTOCOLS.map((p) => [p, emptyTarget()])) as Targeting;
  let declared: Protocol[] = [...DEFAULT_PROTOCOLS];
  if (Array.isArray(fileProtocols)) declared = PROTOCOLS.filter((p) => (fileProtocols as string[]).includes(p));
  else if (fileProtocols && typeof fileProtocols === 'object') {
    const map = fileProtocols as Record<string, boolean | FileProtocol | null>;
    for (const name of Object.keys(map)) protocolName(name, 'gwc.yaml protocols');
    // A map lists what is served: a protocol left out of it, or set to false, is not.
    declared = PROTOCOLS.filter((p) => p in map && map[p] !== false);
    for (const p of declared) {
      const v = map[p];
      if (!v || v === true) continue;
      const label = `gwc.yaml protocols.${p}`;
      if (v['base-path'] !== undefined) targeting[p].basePath = basePath(v['base-path'], `${label}.base-path`);
      if (v['upstream-base-path'] !== undefined) targeting[p].upstreamBasePath = basePath(v['upstream-base-path'], `${label}.upstream-base-path`);
      if (v.credential) targeting[p].credential = v.credential;
      for (const [k, val] of Object.entries(v.headers ?? {})) targeting[p].headers.push(header(k, String(val), `${label}.headers.${k}`));
    }
  }
  if (flagProtocols) declared = flagProtocols;
  for (const b of basePaths) {
    const [p, path] = parseBasePathFlag(b);
    targeting[p].basePath = path;
  }
  for (const h of headers) {
    const { protocols, header: [name, value] } = parseHeaderFlag(h);
    for (const p of protocols) {
      targeting[p].headers = targeting[p].headers.filter(([k]) => k !== name);
      targeting[p].headers.push([name, value]);
    }
  }
  return { declared, targeting };
}

/** Expands `${VAR}` (from `env`; unset is a harness error) and `{upstream}` in every header value. */
export function expandTargeting(t: Targeting, upstreamUrl: string | null, env: NodeJS.ProcessEnv): { resolved: ResolvedTargeting; secrets: string[]; names: string[] } {
  const secrets: string[] = [];
  const names = new Set<string>();
  const resolved = {} as ResolvedTargeting;
  for (const p of PROTOCOLS) {
    resolved[p] = {
      ...t[p],
      headers: t[p].headers.map(([k, v]) => {
        names.add(k);
        const value = v
          .replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => {
            const got = env[name];
            if (got === undefined) throw new HarnessError('BAD_CONFIG', `header ${k}: the environment variable ${name} is not set`);
            secrets.push(got);
            return got;
          })
          .replace(/\{upstream\}/g, () => {
            if (!upstreamUrl) throw new HarnessError('BAD_CONFIG', `header ${k}: {upstream} needs a recording upstream (not in the service profile)`);
            return upstreamUrl;
          });
        return [k, value] as [string, string];
      }),
    };
  }
  return { resolved, secrets, names: [...names] };
}

/** The upstream-side prefixes the recording upstream strips before the checks see a path. */
export const upstreamPrefixes = (t: Targeting | ResolvedTargeting): string[] => [...new Set(PROTOCOLS.map((p) => t[p].upstreamBasePath).filter(Boolean))].sort((a, b) => b.length - a.length);

/** A short description for the console and the report: only what differs from the default. */
export function describeTargeting(t: Targeting, declared: readonly Protocol[]): Record<string, { basePath: string; headers: string[]; credential: string; upstreamBasePath: string }> {
  return Object.fromEntries(
    declared.map((p) => [
      p,
      { basePath: t[p].basePath || '/', headers: t[p].headers.map(([k]) => k), credential: t[p].credential ?? DEFAULT_CREDENTIAL[p], upstreamBasePath: t[p].upstreamBasePath || '/' },
    ]),
  );
}
