// Gateway-level limits a user declares (`--declared-limit rps=10` or `concurrency=4`, per
// credential): the load profile's LIMIT checks hold the gateway to them, and the reference
// gateway enforces them. One parser, so both read the declaration the same way.
import { HarnessError } from './errors.js';
import { plural } from './words.js';

export type DeclaredLimit = { kind: 'rps'; count: number; windowS: number } | { kind: 'concurrency'; count: number };

const whole = (v: string | undefined, what: string, max: number): number => {
  if (!v || !/^\d+$/.test(v) || Number(v) < 1 || Number(v) > max) throw new HarnessError('BAD_FLAG', `--declared-limit: ${what} must be a whole number from 1 to ${max}, got ${JSON.stringify(v ?? '')}`);
  return Number(v);
};

/** `{rps: '10', 'window-s': '1'}` or `{concurrency: '4'}` (the option's map); null for none. */
export function parseDeclaredLimit(map: Record<string, string>): DeclaredLimit | null {
  const keys = Object.keys(map);
  if (!keys.length) return null;
  const unknown = keys.filter((k) => !['rps', 'window-s', 'concurrency'].includes(k));
  if (unknown.length || (map.rps && map.concurrency)) throw new HarnessError('BAD_FLAG', `--declared-limit: expected rps=N (with window-s=S, default 1) or concurrency=N, got ${keys.join(', ')}`);
  if (map.concurrency) return { kind: 'concurrency', count: whole(map.concurrency, 'concurrency', 1000) };
  return { kind: 'rps', count: whole(map.rps, 'rps', 1000), windowS: map['window-s'] ? whole(map['window-s'], 'window-s', 60) : 1 };
}

export function limitText(l: DeclaredLimit): string {
  return l.kind === 'rps' ? `${plural(l.count, 'request')} per ${l.windowS} s per credential` : `${plural(l.count, 'request')} open at once per credential`;
}
