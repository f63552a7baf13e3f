// The run report's JSON Schema lists the protocols the records are (scripts/report-schemas.mjs
// writes it from the registry); a protocol added to the registry and not to the schema fails here
// with the command that regenerates it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROTOCOLS, RECORDS } from '../../../src/protocols/index.js';
import { SOCKET_ROUTES } from '../../../src/core/protocols.js';
import { REGENERATE, REPORT_SCHEMA, withProtocols } from '../../../scripts/report-schemas.mjs';

const shipped = readFileSync(REPORT_SCHEMA, 'utf8');

describe('the run report schema\'s protocol list', () => {
  it('is the registry\'s, in its order', () => {
    const listed = (JSON.parse(shipped) as { properties: { declared: { properties: { protocols: { items: { enum: string[] } } } } } }).properties.declared.properties.protocols.items.enum;
    expect(listed, `src/report/shared/run-report.schema.json is stale: regenerate with \`${REGENERATE}\``).toEqual([...PROTOCOLS]);
    expect(Object.keys(RECORDS)).toEqual([...PROTOCOLS]);
  });

  it('is written by the script, the rest of the schema left as it is', () => {
    expect(withProtocols(shipped, [...PROTOCOLS]), `regenerate with \`${REGENERATE}\``).toBe(shipped);
    const seven = JSON.parse(withProtocols(shipped, [...PROTOCOLS, 'dummy'])) as { properties: { declared: { properties: { protocols: { items: { enum: string[] } } } } } };
    expect(seven.properties.declared.properties.protocols.items.enum).toEqual([...PROTOCOLS, 'dummy']);
  });

  it('lists the socket routes the core names, for declared.websockets', () => {
    const listed = (JSON.parse(shipped) as { properties: { declared: { properties: { websockets: { items: { enum: string[] } } } } } }).properties.declared.properties.websockets.items.enum;
    expect(listed, 'src/report/shared/run-report.schema.json: declared.websockets.items.enum differs from SOCKET_ROUTES (src/core/protocols.ts)').toEqual([...SOCKET_ROUTES]);
  });
});
