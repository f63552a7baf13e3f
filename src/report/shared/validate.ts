// Every RunReport is checked against its JSON Schema when it is built: a report that does not
// match is a harness bug, caught in the run that made it, not by the tool that reads it.
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { readText } from '../../core/paths.js';
import type { RunReport } from './types.js';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (a: Ajv) => Ajv;

type SchemaError = { instancePath: string; keyword: string; message?: string; params?: Record<string, unknown> };
let validator: ((r: unknown) => boolean) & { errors?: SchemaError[] | null } | undefined;

export function assertValidReport(report: RunReport): void {
  if (!validator) {
    const ajv = new Ajv({ allErrors: true });
    addFormats(ajv);
    validator = ajv.compile(JSON.parse(readText('src', 'report', 'shared', 'run-report.schema.json')));
  }
  if (!validator(report)) {
    const errors = validator.errors!;
    const e = errors[0];
    // A missing or extra key says which keys the object had: a key the scrubber took shows as `***`.
    const at = (p: string) => p.split('/').slice(1).reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], report);
    const keys = e.keyword === 'required' || e.keyword === 'additionalProperties' ? ` (its keys: ${Object.keys(at(e.instancePath) ?? {}).join(', ')})` : '';
    const more = errors.length > 1 ? `; ${errors.length - 1} more: ${errors.slice(1, 4).map((x) => `${x.instancePath || '/'} ${x.message}${x.params?.additionalProperty ? ` ${String(x.params.additionalProperty)}` : ''}`).join('; ')}` : '';
    throw new Error(`harness bug: the report does not match its schema at ${e.instancePath || '/'}: ${e.message}${keys}${more}`);
  }
}
