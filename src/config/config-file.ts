// gwc.yaml (or the --config file): read, parsed and checked against the schema made from the
// option table (src/config/options.ts). Every problem is one line naming the file: a folder given
// for the file, YAML the library cannot parse (with its line and column), an unknown key (with the
// closest known one), a value of the wrong type.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import YAML from 'yaml';
import { HarnessError } from '../core/errors.js';
import { didYouMean } from '../core/suggest.js';
import { yamlErrorLine } from '../core/yaml-error.js';
import { configSchema } from './options.js';

export const CONFIG_SCHEMA = configSchema();
export type FileConfig = Record<string, unknown>;

/** gwc.yaml's validator, compiled when a file is first read (compiling costs a start-up that reads none ~0.3 s of CPU). */
let compiled: ValidateFunction<FileConfig> | undefined;
// verbose: each error carries the schema it broke, whose keys the did-you-mean of an unknown key is chosen from.
const validator = (): ValidateFunction<FileConfig> => (compiled ??= new Ajv({ allErrors: true, verbose: true }).compile<FileConfig>(CONFIG_SCHEMA));

/** The file's text; a folder, or a file that cannot be read, is one line saying which. */
function readConfigText(path: string): string {
  if (statSync(path).isDirectory()) throw new HarnessError('BAD_CONFIG', `config file ${path} is a folder, not a file: give the YAML file itself (e.g. ${path.replace(/\/+$/, '')}/gwc.yaml)`);
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new HarnessError('BAD_CONFIG', `config file ${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message.split('\n')[0]})`);
  }
}

/** Reads and validates gwc.yaml; errors name the file and the key. */
export function loadConfigFile(path: string, required: boolean): FileConfig {
  if (!existsSync(path)) {
    if (required) throw new HarnessError('BAD_CONFIG', `config file ${path} does not exist`);
    return {};
  }
  const text = readConfigText(path);
  let data: unknown;
  try {
    data = YAML.parse(text);
  } catch (e) {
    throw new HarnessError('BAD_CONFIG', yamlErrorLine(path, e));
  }
  if (data === null || data === undefined) return {};
  const validate = validator();
  if (!validate(data)) throw new HarnessError('BAD_CONFIG', `${path}: ${schemaProblem(validate.errors!)}`);
  return data;
}

/** The most telling of the schema's errors, in words: with alternatives (`protocols:` a list or a map) the deepest says the most. */
function schemaProblem(errors: ErrorObject[]): string {
  const rank = (k: string) => (k === 'anyOf' || k === 'type' ? 1 : 0);
  const e = [...errors].sort((a, b) => b.instancePath.split('/').length - a.instancePath.split('/').length || rank(a.keyword) - rank(b.keyword))[0];
  const key = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (e.keyword === 'additionalProperties') {
    const extra = (e.params as { additionalProperty: string }).additionalProperty;
    const known = Object.keys((e.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});
    return `unknown key "${[key, extra].filter(Boolean).join('.')}"${didYouMean(extra, known)}`;
  }
  return `key "${key || '(root)'}" ${e.message}${e.keyword === 'enum' ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})` : ''}`;
}
