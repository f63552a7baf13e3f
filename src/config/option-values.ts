// The values of the run settings: each flag and environment value parsed by its row's kind
// (src/config/options.ts), then flag over environment over gwc.yaml over the row's default.
import { HarnessError } from '../core/errors.js';
import { unknownValue } from '../core/suggest.js';
import { camel, NO_CREDENTIAL, ROWS, type OptionSpec, type OptionValues } from './options.js';

/** What commander gives: each flag under its camel-case name, as text (lists as arrays of text). */
export type FlagValues = Record<string, string | string[] | boolean | undefined>;

const inFile = (o: OptionSpec) => o.where !== 'flag';
const listOf = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const onCommandLine = (o: OptionSpec) => o.where !== 'file';

/** Where a value came from, for messages that name it. */
type Source = { from: 'flag' | 'env' | 'file'; label: string };

function bad(src: Source, what: string, got: unknown): never {
  throw new HarnessError(src.from === 'file' ? 'BAD_CONFIG' : 'BAD_FLAG', `${src.label}: expected ${what}, got ${JSON.stringify(got)}`);
}

/** Parses a flag or environment value (always text) into the option's type; the file's values are typed already (the schema checked them). */
function fromText(o: OptionSpec, raw: string | string[] | boolean, src: Source): unknown {
  const items = (v: string | string[]) => (Array.isArray(v) ? v : [v]).flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean);
  switch (o.kind) {
    case 'bool':
      if (typeof raw === 'boolean') return raw;
      if (/^(1|true|yes|on)$/i.test(String(raw))) return true;
      if (/^(0|false|no|off|)$/i.test(String(raw))) return false;
      return bad(src, 'true or false', raw);
    case 'int': {
      const v = String(raw);
      if (!/^-?\d+$/.test(v) || Number(v) < o.min! || Number(v) > o.max!) return bad(src, `a whole number from ${o.min} to ${o.max}`, v);
      return Number(v);
    }
    case 'url': {
      if (!/^https?:\/\/[^/]/.test(String(raw))) return bad(src, 'an http:// or https:// URL', raw);
      // The port is the part a hand-typed URL gets wrong most (the URL parser's own words say only "Invalid URL").
      const port = /^https?:\/\/(?:\[[^\]]*\]|[^/:?#]*):(\d+)(?:[/?#]|$)/.exec(String(raw))?.[1];
      if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return bad(src, 'a URL whose port is from 1 to 65535', raw);
      if (!URL.canParse(String(raw))) return bad(src, 'a valid http:// or https:// URL', raw);
      return String(raw);
    }
    case 'enum':
      if (!o.values!.includes(String(raw))) throw new HarnessError('BAD_FLAG', `${src.label}: ${unknownValue(o.name, String(raw), o.values!, o.values!.join(', '))}`);
      return String(raw);
    case 'list':
      if (o.whole) return Array.isArray(raw) ? raw : [String(raw)];
      return Array.isArray(raw) ? raw : items(String(raw));
    case 'enum-list': {
      const v = items(typeof raw === 'boolean' ? String(raw) : raw);
      for (const x of v) if (!o.values!.includes(x)) throw new HarnessError('BAD_FLAG', `${src.label}: ${unknownValue(o.name === 'reporter' ? 'reporter' : o.name.replace(/s$/, ''), x, o.values!, o.values!.join(', '))}`);
      if (!v.length) return bad(src, `one or more of ${o.values!.join(', ')}`, raw);
      return v;
    }
    case 'map': {
      const out: Record<string, string> = {};
      for (const x of Array.isArray(raw) ? raw : [String(raw)]) {
        const eq = x.indexOf('=');
        if (eq <= 0 || eq === x.length - 1) return bad(src, (o.arg ?? 'name=value').replace(/[<>]/g, ''), x);
        out[x.slice(0, eq).trim()] = x.slice(eq + 1).trim();
      }
      return out;
    }
    case 'string':
      // `--no-NAME` (commander gives false): the row's word for none.
      if (raw === false && o.negate) return NO_CREDENTIAL;
      return String(raw);
    case 'waivers':
      return String(raw);
  }
}

/**
 * The value of every option: the flag wins over the environment, the environment over the
 * file, the file over the default. Accumulating lists add the file's and the flag's.
 */
export function resolveOptions(flags: FlagValues, file: Record<string, unknown>, env: NodeJS.ProcessEnv): OptionValues {
  const out: Record<string, unknown> = {};
  for (const o of ROWS) {
    const flag = onCommandLine(o) ? flags[camel(o.name)] : undefined;
    const flagSet = flag !== undefined && !(Array.isArray(flag) && flag.length === 0);
    const envRaw = o.env ? env[o.env] : undefined;
    const envSet = envRaw !== undefined && envRaw !== '';
    const fileVal = inFile(o) ? file[o.name] : undefined;
    const fromFlag = flagSet ? fromText(o, flag, { from: 'flag', label: `--${o.name}` }) : undefined;
    // An environment value the flag overrides is not read, so not refused either (GWC_SEED=x beside --seed 3); lists that add up read both.
    const fromEnv = envSet && (o.accumulate || !flagSet) ? fromText(o, envRaw!, { from: 'env', label: o.env! }) : undefined;
    if (o.accumulate) {
      out[o.name] = [...listOf(fileVal), ...listOf(fromEnv), ...listOf(fromFlag)];
      continue;
    }
    out[o.name] = fromFlag ?? fromEnv ?? fileVal ?? o.default;
  }
  // Each value was parsed by its row's kind (fromText) or checked by the schema made from the same row.
  return out as OptionValues;
}

/** One flag of a command that parses its own flags (merge-reports), parsed by its row as `run` parses it. */
export function parseFlag<N extends keyof OptionValues>(name: N, raw: string | string[] | boolean): NonNullable<OptionValues[N]> {
  const o = ROWS.find((x) => x.name === name)!;
  // fromText gives the row's kind, which is what OptionValues says of it.
  return fromText(o, raw, { from: 'flag', label: `--${o.name}` }) as NonNullable<OptionValues[N]>;
}

/**
 * One option's value from a command's flags and the environment (no gwc.yaml): for a command
 * that takes a run setting but runs no suite (`reference --declared-limit`).
 */
export function flagOrEnv(name: string, flags: FlagValues, env: NodeJS.ProcessEnv): unknown {
  const o = ROWS.find((r) => r.name === name);
  if (!o) throw new Error(`harness bug: no option ${name}`);
  const flag = flags[camel(o.name)];
  if (flag !== undefined && !(Array.isArray(flag) && flag.length === 0)) return fromText(o, flag, { from: 'flag', label: `--${o.name}` });
  const e = o.env ? env[o.env] : undefined;
  if (e !== undefined && e !== '') return fromText(o, e, { from: 'env', label: o.env! });
  return o.default;
}
