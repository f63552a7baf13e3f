// The apps gateway's readiness: its OAuth authorization-server metadata answers JSON with a
// token endpoint (the first thing a client reads). Polled, bounded; the last answer seen is
// the diagnosis when it never becomes ready. And what the ready gateway serves at GET /protocol.
import { EXPECTED_APPS_CONTRACT, sha256Of } from '../../../src/core/apps-contract.js';
import type { GatewayContract } from '../../../src/report/shared/types.js';
import { HarnessError } from '../../../src/core/errors.js';
import { maskCut } from '../../../src/core/mask.js';

const METADATA = '/.well-known/oauth-authorization-server';

/** Resolves once `${url}${METADATA}` answers 200 JSON with a token_endpoint; else a one-line harness error after `timeoutMs`. */
export async function awaitAppsGateway(url: string, timeoutMs: number, alive: () => string | null = () => null): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  let backoff = 50;
  for (;;) {
    const gone = alive();
    if (gone) throw new HarnessError('GATEWAY_START', gone);
    try {
      const res = await fetch(`${url}${METADATA}`, { redirect: 'manual', signal: AbortSignal.timeout(Math.max(500, Math.min(3000, deadline - Date.now()))) });
      const text = await res.text();
      let json: { token_endpoint?: unknown } | undefined;
      try {
        json = JSON.parse(text) as { token_endpoint?: unknown };
      } catch {
        json = undefined;
      }
      if (res.status === 200 && typeof json?.token_endpoint === 'string') return;
      last = `${res.status} ${res.headers.get('content-type') ?? '-'} ${maskCut(text.replace(/\s+/g, ' '), 120)}`;
    } catch (e) {
      const err = e as { name?: string; cause?: { code?: string }; message?: string };
      last = err.cause?.code ?? err.name ?? err.message ?? String(e);
    }
    if (Date.now() >= deadline)
      throw new HarnessError('GATEWAY_START', `the apps gateway at ${url} was not ready within ${Math.round(timeoutMs / 1000)} s (GET ${METADATA}: ${last}); start it with the configuration apps-config wrote, or raise --ready-timeout-s`);
    // Polls (the gateway gives no other sign), bounded by the deadline.
    await new Promise((r) => setTimeout(r, Math.min(backoff, Math.max(0, deadline - Date.now()))));
    backoff = Math.min(backoff * 2, 500);
  }
}

/**
 * What a ready apps gateway serves at GET /protocol (its contract; unauthenticated), for the
 * report: status, and when served its size, type and digest, beside the digest of the contract
 * the catalog was written against. A gateway that does not answer within 5 s is recorded as status 0.
 */
export async function fetchContract(url: string): Promise<GatewayContract> {
  const base = { path: EXPECTED_APPS_CONTRACT.path, expectedDigest: `sha256:${EXPECTED_APPS_CONTRACT.sha256}` };
  try {
    const res = await fetch(`${url}${EXPECTED_APPS_CONTRACT.path}`, { redirect: 'manual', signal: AbortSignal.timeout(5000) });
    const body = new Uint8Array(await res.arrayBuffer());
    if (res.status !== 200) return { ...base, status: res.status };
    return { ...base, status: 200, digest: `sha256:${sha256Of(body)}`, bytes: body.byteLength, contentType: res.headers.get('content-type') ?? '' };
  } catch {
    return { ...base, status: 0 };
  }
}
