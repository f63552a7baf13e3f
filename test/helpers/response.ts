// A gateway response built in memory, for unit tests of the code that reads responses.
import { createHash } from 'node:crypto';
import type { GwResponse } from '../../src/client/gateway.js';

export function fakeResponse(status: number, headers: Array<[string, string]>, body: string): GwResponse {
  const b = Buffer.from(body);
  return {
    status,
    rawHeaders: headers,
    body: b,
    wireBytes: b.length,
    wireSha256: createHash('sha256').update(b).digest('hex'),
    truncated: false,
    startedAt: 0,
    headersAt: 1,
    endedAt: 2,
    header: (n) => headers.find(([k]) => k === n.toLowerCase())?.[1],
    text: () => body,
  };
}
