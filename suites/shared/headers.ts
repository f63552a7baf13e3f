// Reading forwarded headers off a recorded request.
import { headerValues, type RecordedRequest } from '../../src/upstream/record.js';

/** The comma-separated values of all instances of a list header, in order. */
export function listValues(r: RecordedRequest, name: string): string[] {
  return headerValues(r, name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

/** What of `sent` did not reach the client as sent: missing, changed or doubled headers. */
export function lostHeaders(sent: ReadonlyArray<readonly [string, string]>, got: Array<[string, string]>): string[] {
  const problems: string[] = [];
  for (const [name, value] of sent) {
    const values = got.filter(([k]) => k.toLowerCase() === name).map(([, v]) => v);
    if (!values.length) problems.push(`${name} missing`);
    else if (values.length > 1 || values[0] !== value) problems.push(`${name}: ${values.join(', ')} (sent ${value})`);
  }
  return problems;
}
