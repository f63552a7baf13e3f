// Every RunReport is checked against its JSON Schema when it is built: a report that does not
// match is a harness bug, caught in the run that made it, not by the tool that reads it.
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { readText } from '../core/paths.js';
import type { RunReport } from './types.js';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (a: Ajv) => Ajv;

let validator: ((r: unknown) => boolean) & { errors?: Array<{ instancePath: string; message?: string }> | null } | undefined;

export function assertValidReport(report: RunReport): void {
  if (!validator) {
    const ajv = new Ajv({ allErrors: true });
    addFormats(ajv);
    validator = ajv.compile(JSON.parse(readText('src', 'report', 'run-report.schema.json')));
  }
  if (!validator(report)) {
    const e = validator.errors![0];
    throw new Error(`harness bug: the report does not match its schema at ${e.instancePath || '/'}: ${e.message}`);
  }
}
