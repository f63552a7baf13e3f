// Response headers the real messages API sends with a 429 or 529: retry
// guidance, the request id and the rate-limit state. Plain data for the recording upstream.
import type { HeaderList } from '../../upstream/scenario.js';

/** Messages like the real API's, one per status of the catalog (ERR-PASS-1). */
export const ERROR_MESSAGES: Record<number, string> = {
  400: 'messages.1.content.0.type: Expected `text`, `image`, `tool_use` or `tool_result`, got `txet`',
  401: 'invalid x-api-key',
  402: 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
  403: 'Your API key does not have permission to use the specified resource.',
  404: 'model: claude-gwc-no-such-model-20990101',
  409: 'A request with this idempotency key is already being processed.',
  413: 'Request exceeds the maximum allowed number of bytes.',
  429: 'This request would exceed the rate limit for your organization of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits.',
  500: 'Internal server error',
  504: 'Request timed out while waiting for the model. Please retry with streaming.',
  529: 'Overloaded',
};

const RATE_LIMITS = ['requests', 'tokens', 'input-tokens', 'output-tokens'] as const;

/** RFC 3339 time, seconds precision, as the API writes its `*-reset` headers. */
function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
}

/** Retry and rate-limit headers of a 429 (rate limited) or 529 (overloaded) answer. */
export function retryGuidanceHeaders(status: number, now = Date.now()): HeaderList {
  const headers: HeaderList = [
    ['request-id', `req_011CVgwc${status}retry${String(now % 100000).padStart(5, '0')}`],
    ['retry-after', '17'],
    ['retry-after-ms', '16842'],
    ['x-should-retry', 'true'],
  ];
  const limits: Record<(typeof RATE_LIMITS)[number], number> = { requests: 50, tokens: 120000, 'input-tokens': 100000, 'output-tokens': 20000 };
  for (const kind of RATE_LIMITS) {
    headers.push([`anthropic-ratelimit-${kind}-limit`, String(limits[kind])]);
    // A 429 says which limit ran out; a 529 comes with limits to spare.
    headers.push([`anthropic-ratelimit-${kind}-remaining`, status === 429 && kind === 'requests' ? '0' : String(Math.floor(limits[kind] / 2))]);
    headers.push([`anthropic-ratelimit-${kind}-reset`, rfc3339(now + 17_000)]);
  }
  return headers;
}
