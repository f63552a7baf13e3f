// Reading forwarded headers off a recorded request.
import { headerValues, type RecordedRequest } from '../../src/upstream/record.js';

/** The comma-separated values of all instances of a list header, in order. */
export function listValues(r: RecordedRequest, name: string): string[] {
  return headerValues(r, name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}
