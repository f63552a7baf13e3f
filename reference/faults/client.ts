// Faults a real client feels through the gateway more than a check of one request does: here,
// a gateway that sheds load by refusing an SDK's first attempt, so that the client's own retry
// logic carries every request (CLIENT-3, test/real/clients/client-profile.test.ts). The generated request
// shapes carry the Stainless headers too, so the default run sees it on their bodies.
import type { Fault, RequestParts } from './types.js';

const retryCount = (r: RequestParts) => r.headers.find(([k]) => k.toLowerCase() === 'x-stainless-retry-count')?.[1];

/** The back-off the refusal asks for: short, so that the SDK's retry follows quickly. */
const RETRY_AFTER_MS = 20;

export const CLIENT_FAULTS: Fault[] = [
  {
    name: 'shed-first-attempt',
    breaks: ['CLIENT-3'],
    description: `answers 529 overloaded_error (retry-after-ms ${RETRY_AFTER_MS}) to every request an SDK marks as its first attempt (x-stainless-retry-count: 0), as a gateway shedding load would; an SDK's own retry (count 1) goes through, a client that retries with the count left at 0 (Claude Code) is refused each time`,
    intercept: (r, res) => {
      if (retryCount(r) !== '0') return false;
      const body = JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
      res.writeHead(529, { 'content-type': 'application/json', 'retry-after-ms': String(RETRY_AFTER_MS), 'content-length': String(Buffer.byteLength(body)) });
      res.end(body);
      return true;
    },
  },
];
