// CFG-SCHEMA-1 (and the schema-level parts of other rules): the dialect's JSON Schema, checked
// with ajv, its errors turned into findings at the YAML node they are about.
import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type FuncKeywordDefinition, type ValidateFunction } from 'ajv';
import type { Dialect } from './rules.js';
import type { KeyPath } from './source.js';

/** A `${VAR}` or `${file:...}` reference anywhere in the string: its value is only known at boot. */
export const hasRef = (s: string): boolean => /\$\{(\w+|file:[^}]+)\}/.test(s);

/** Numbers the gateway coerces (z.coerce.number): numbers and numeric strings; `${VAR}` is unknown until boot. */
function numberError(o: { int?: boolean; min?: number; max?: number; gt?: number }, data: unknown): string | null {
  if (typeof data === 'string' && hasRef(data)) return null;
  if (data !== null && typeof data === 'object') return 'must be a number';
  const n = Number(data);
  if (Number.isNaN(n)) return 'must be a number';
  if (o.int && !Number.isInteger(n)) return 'must be a whole number';
  if (o.gt !== undefined && !(n > o.gt)) return `must be greater than ${o.gt}`;
  if (o.min !== undefined && n < o.min) return `must be at least ${o.min}`;
  if (o.max !== undefined && n > o.max) return `must be at most ${o.max}`;
  return null;
}

function keyword<S>(name: string, check: (schema: S, data: unknown) => string | null): FuncKeywordDefinition {
  const validate = (schema: S, data: unknown): boolean => {
    const message = check(schema, data);
    (validate as unknown as { errors: Partial<ErrorObject>[] }).errors = message ? [{ keyword: name, message, params: {} }] : [];
    return message === null;
  };
  return { keyword: name, errors: true, validate: validate as FuncKeywordDefinition['validate'] };
}

function makeAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true });
  for (const k of ['x-version', 'x-rule', 'x-expect']) ajv.addKeyword({ keyword: k });
  ajv.addKeyword(keyword('gwcNumber', (o: { int?: boolean; min?: number; max?: number; gt?: number }, d) => numberError(o, d)));
  ajv.addKeyword(
    keyword('gwcPattern', (p: string, d) => (typeof d !== 'string' || hasRef(d) || new RegExp(p).test(d) ? null : `must match the form ${p}`)),
  );
  ajv.addKeyword(
    keyword('gwcMinLength', (n: number, d) => (typeof d !== 'string' || hasRef(d) || d.length >= n ? null : `must be at least ${n} characters long`)),
  );
  ajv.addKeyword(
    keyword('gwcUrl', (kind: 'http' | 'any', d) => {
      if (typeof d !== 'string' || hasRef(d)) return null;
      if (!URL.canParse(d)) return 'must be an absolute URL';
      if (kind === 'http' && !/^https?:$/.test(new URL(d).protocol)) return 'must be an http(s) URL';
      return null;
    }),
  );
  ajv.addKeyword(keyword('gwcCidr', (_: true, d) => (typeof d !== 'string' || hasRef(d) || isCidr(d) ? null : 'must be an IP address or a CIDR range')));
  ajv.addKeyword(keyword('gwcEmail', (_: true, d) => (typeof d !== 'string' || hasRef(d) || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(d) ? null : 'must be an email address')));
  return ajv;
}

/** An IP address, or an address and a prefix length within its family's range. */
export function isCidr(s: string): boolean {
  const [ip, prefix, ...rest] = s.trim().split('/');
  const family = isIP(ip);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

export interface SchemaInfo {
  schema: Record<string, unknown>;
  validate: ValidateFunction;
}

const cache = new Map<Dialect, SchemaInfo>();
const read = new Map<Dialect, Record<string, unknown>>();
let ajv: Ajv | undefined;

/** The dialect's JSON Schema as data (src/lint/schemas/<dialect>.schema.json), parsed once and not compiled. */
export function schemaJson(dialect: Dialect): Record<string, unknown> {
  let schema = read.get(dialect);
  if (!schema) read.set(dialect, (schema = JSON.parse(readFileSync(resolveSchemaPath(dialect), 'utf8')) as Record<string, unknown>));
  return schema;
}

/** The dialect's JSON Schema, compiled once, when a file is first linted (compiling the public schema costs ~0.5 s of CPU). */
export function schemaFor(dialect: Dialect): SchemaInfo {
  let info = cache.get(dialect);
  if (!info) {
    ajv ??= makeAjv();
    const schema = schemaJson(dialect);
    info = { schema, validate: ajv.compile(schema) };
    cache.set(dialect, info);
  }
  return info;
}

/** From src/lint/ (vitest) or dist/src/lint/ (the built CLI): both find the checked-in file in src/lint/schemas/. */
export function resolveSchemaPath(name: string): string {
  const beside = fileURLToPath(new URL(`./schemas/${name}.schema.json`, import.meta.url));
  return existsSync(beside) ? beside : fileURLToPath(new URL(`../../../src/lint/schemas/${name}.schema.json`, import.meta.url));
}

export interface RawFinding {
  /** The schema keyword behind a schema finding (`required`, `additionalProperties`, ...). */
  keyword?: string;
  rule: string;
  path: KeyPath;
  message: string;
  hint: string;
}

/** Edit distance, for "did you mean". */
export function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

export function nearest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const d = distance(key.toLowerCase(), k.toLowerCase());
    if (d < bestD) [best, bestD] = [k, d];
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(key.length / 3)) ? best : undefined;
}

/** Splits an ajv instancePath into keys and list indexes, looking at the data to tell them apart. */
function toPath(pointer: string, data: unknown): (string | number)[] {
  const out: (string | number)[] = [];
  let node = data;
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      out.push(Number(seg));
      node = node[Number(seg)];
    } else {
      out.push(seg);
      node = node && typeof node === 'object' ? (node as Record<string, unknown>)[seg] : undefined;
    }
  }
  return out;
}

/** The innermost `x-rule` on the way down `schemaPath` (default CFG-SCHEMA-1). */
function ruleAt(schema: Record<string, unknown>, schemaPath: string): string {
  let node: unknown = schema;
  let rule = 'CFG-SCHEMA-1';
  for (const raw of schemaPath.replace(/^#\/?/, '').split('/')) {
    if (!node || typeof node !== 'object') break;
    node = (node as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
    const r = node && typeof node === 'object' ? (node as Record<string, unknown>)['x-rule'] : undefined;
    if (typeof r === 'string') rule = r;
  }
  return rule;
}

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'a mapping' : `a ${typeof v}`);
const show = (p: KeyPath) => (p.length ? `\`${p.reduce<string>((s, x) => (typeof x === 'number' ? `${s}[${x}]` : s ? `${s}.${x}` : x), '')}\`` : 'the file');

export interface SchemaOptions {
  /** Keys that another rule reports (literal secrets in the outline): not "unknown". */
  claimed?: (path: KeyPath) => boolean;
  /** A hint for an unknown top-level key that belongs to the other dialect. */
  foreign?: (key: string) => string | undefined;
}

export function schemaFindings(dialect: Dialect, data: unknown, opts: SchemaOptions = {}): RawFinding[] {
  const { schema, validate } = schemaFor(dialect);
  if (validate(data)) return [];
  const errors = (validate.errors ?? []).filter((e) => e.keyword !== 'if' && !/\/if\//.test(e.schemaPath));
  // Inside anyOf/oneOf the branches' own errors are noise: the alternative's error says it all.
  const alternatives = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.schemaPath.replace(/\/(anyOf|oneOf)$/, ''));
  const kept = errors.filter((e) => !alternatives.some((a) => e.schemaPath.startsWith(`${a}/anyOf/`) || e.schemaPath.startsWith(`${a}/oneOf/`)));
  const out: RawFinding[] = [];
  const seen = new Set<string>();
  for (const e of kept) {
    const base = toPath(e.instancePath, data);
    const rule = ruleAt(schema, e.schemaPath);
    const parent = (e.parentSchema ?? {}) as Record<string, unknown>;
    const expect = typeof parent['x-expect'] === 'string' ? (parent['x-expect'] as string) : undefined;
    let f: RawFinding | undefined;
    switch (e.keyword) {
      case 'additionalProperties': {
        const key = String((e.params as { additionalProperty: string }).additionalProperty);
        const path = [...base, key];
        if (opts.claimed?.(path)) continue;
        const known = Object.keys((parent.properties ?? {}) as object);
        const foreign = base.length === 0 ? opts.foreign?.(key) : undefined;
        const guess = nearest(key, known);
        f = {
          rule,
          path,
          message: `${show(path)} is not a known key${foreign ? `: ${foreign}` : guess ? `; did you mean \`${guess}\`?` : ''}`,
          hint: guess && !foreign ? `rename it to \`${guess}\`` : known.length ? `known keys here: ${known.join(', ')}` : 'remove it',
        };
        break;
      }
      case 'required': {
        const missing = String((e.params as { missingProperty: string }).missingProperty);
        const path = [...base, missing];
        f = { rule, path, message: `${show(path)} is required${base.length === 0 ? ' (a required section)' : ''}`, hint: `add \`${missing}:\`${base.length ? ` under ${show(base)}` : ' at the top level'}` };
        break;
      }
      case 'type':
        f = { rule, path: base, message: `${show(base)} must be ${articled(String((e.params as { type: string }).type))}, not ${typeName(e.data)}`, hint: expect ?? `write ${articled(String((e.params as { type: string }).type))}` };
        break;
      case 'enum': {
        const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.map(String);
        const guess = typeof e.data === 'string' ? nearest(e.data, allowed) : undefined;
        f = { rule, path: base, message: `${show(base)} must be one of: ${allowed.join(', ')}${guess ? `; did you mean \`${guess}\`?` : ''}`, hint: guess ? `write \`${guess}\`` : `use one of: ${allowed.join(', ')}` };
        break;
      }
      case 'const':
        f = { rule, path: base, message: `${show(base)} must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`, hint: `set it to ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)} or remove it` };
        break;
      case 'anyOf':
      case 'oneOf':
        f = { rule, path: base, message: `${show(base)} must be ${expect ?? 'one of the allowed forms'}`, hint: expect ? `write ${expect}` : 'see the configuration reference' };
        break;
      case 'pattern':
        f = { rule, path: base, message: `${show(base)} must be ${expect ?? `of the form ${(e.params as { pattern: string }).pattern}`}`, hint: expect ? `write ${expect}` : 'fix the value' };
        break;
      default:
        f = { rule, path: base, message: `${show(base)} ${e.message ?? 'is not valid'}`, hint: expect ? `write ${expect}` : (HINTS[e.keyword] ?? 'correct the value') };
    }
    f.keyword = e.keyword;
    const k = `${f.rule}|${show(f.path)}|${f.message}`;
    if (!seen.has(k)) {
      seen.add(k);
      out.push(f);
    }
  }
  return out;
}

const HINTS: Record<string, string> = {
  gwcNumber: 'write a number in the allowed range (a ${VAR} reference is checked by the gateway at boot)',
  gwcUrl: 'write an absolute URL, e.g. https://host.example',
  gwcCidr: 'write an address (10.0.0.1) or a range (10.0.0.0/8)',
  gwcEmail: 'write an email address',
  gwcPattern: 'write a value of that form',
  gwcMinLength: 'use a longer value, or better a ${VAR} reference',
  minItems: 'add an entry, or remove the key',
  minLength: 'write a non-empty value, or remove the key',
  minProperties: 'add an entry, or remove the key',
  maxProperties: 'keep one entry',
  uniqueItems: 'remove the repeated entry',
  minimum: 'use a number that is not negative',
};

const articled = (t: string) => (t === 'array' ? 'a list' : t === 'object' ? 'a mapping' : t === 'integer' ? 'a whole number' : `a ${t}`);
