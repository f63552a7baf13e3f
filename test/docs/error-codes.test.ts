// The error codes the harness prints (src/core/errors.ts, ERROR_CODES) and docs/errors.md's table
// of them: the same codes, in the same order, with the same meanings. A code added, renamed or
// reworded fails here until the page says it too; and a code read from another process is
// checked against the table, never taken on trust.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, errorFromWire, errorLine, HarnessError, isHarnessErrorCode, printedCode } from '../../src/core/errors.js';
import { ROOT } from '../helpers/cli.js';

describe('error codes', () => {
  it('docs/errors.md lists every code of the table with its meaning, and no other', () => {
    const page = readFileSync(join(ROOT, 'docs/errors.md'), 'utf8');
    const rows = [...page.matchAll(/^\| `(GWC-[A-Z-]+)` \| (.*) \|$/gm)].map((m) => [m[1], m[2].replace(/\\\|/g, '|')]);
    expect(rows).toEqual(Object.entries(ERROR_CODES).map(([code, meaning]) => [printedCode(code as keyof typeof ERROR_CODES), meaning]));
  });

  it('each printed code is distinct and says its key', () => {
    const printed = Object.keys(ERROR_CODES).map((c) => printedCode(c as keyof typeof ERROR_CODES));
    expect(new Set(printed).size).toBe(printed.length);
    expect(printedCode('BAD_CONFIG')).toBe('GWC-BAD-CONFIG');
    expect(errorLine(new HarnessError('BAD_CONFIG', 'gwc.yaml:3:7: bad'))).toBe('error GWC-BAD-CONFIG: gwc.yaml:3:7: bad');
  });

  it("a remote code is kept when the table has it; another becomes MOCK_FAILED, naming it, the message kept", () => {
    expect(isHarnessErrorCode('PORT_IN_USE')).toBe(true);
    expect(isHarnessErrorCode('toString')).toBe(false);
    expect(isHarnessErrorCode(undefined)).toBe(false);
    const known = errorFromWire('PORT_IN_USE', 'busy');
    expect([known.code, known.message]).toEqual(['PORT_IN_USE', 'busy']);
    const unknown = errorFromWire('INTERNAL', 'boom');
    expect([unknown.code, unknown.message]).toEqual(['MOCK_FAILED', `boom (the mock's error code "INTERNAL")`]);
    expect(errorFromWire({ not: 'a code' }, 'x').code).toBe('MOCK_FAILED');
  });
});
