// Before a run's checks: the target reached. The TLS handshake first (its failure is one line),
// then a HEAD / that tells an unreachable or non-HTTP target (exit 2) from a live one.
import { request, type Dispatcher } from 'undici';
import { connectOptions, loadTransport, newDispatcher, probeTls, tlsFailure, type Transport } from '../client/transport.js';
import { HarnessError } from '../core/errors.js';
import type { RunConfig } from '../config/config.js';

const PREFLIGHT_MS = 3000;
/** Printed (and kept in the report as transport.insecure) when the target's certificate is not verified. */
export const INSECURE_WARNING = "warning: --insecure: the gateway's TLS certificate is not verified (a test set-up only; the report says so)";

/**
 * Tells an unreachable or non-HTTP target (exit 2) from a live one. A target that accepts the
 * connection but does not answer is not refused here: its checks time out one by one.
 */
export async function preflight(target: string, warn: (s: string) => void, dispatcher?: Dispatcher): Promise<void> {
  try {
    const res = await request(target, { method: 'HEAD', headersTimeout: PREFLIGHT_MS, bodyTimeout: PREFLIGHT_MS, signal: AbortSignal.timeout(PREFLIGHT_MS + 500), ...(dispatcher ? { dispatcher } : {}) });
    await res.body.dump();
  } catch (e) {
    // TLS (untrusted, wrong name, expired, client certificate wanted): one line, never the TLS library's text.
    const tls = tlsFailure(e);
    if (tls) throw new HarnessError('TARGET_TLS', tls);
    const err = e as { code?: string; name?: string; message?: string; cause?: { code?: string } };
    const code = String(err.code ?? err.cause?.code ?? err.name ?? '');
    if (['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT'].includes(code))
      throw new HarnessError('TARGET_UNREACHABLE', `target ${target} is unreachable (${code})`);
    // An AbortSignal.timeout() abort is a DOMException whose `code` is the number 23: go by its name.
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'TimeoutError' || code === 'AbortError' || err.name === 'TimeoutError' || err.name === 'AbortError') {
      warn(`warning: target ${target} accepted the connection but did not answer HEAD / within ${PREFLIGHT_MS / 1000} s; checks may time out`);
      return;
    }
    // Not HTTP at all (the answer does not start with a status line): a setup that cannot work.
    if (code === 'HPE_INVALID_CONSTANT' || /Expected HTTP\//i.test(err.message ?? '')) throw new HarnessError('TARGET_NOT_HTTP', `target ${target} did not answer HTTP (${code})`);
    // HTTP, but broken (a control character in a header, bad framing, a reset): the gateway's
    // fault, which its checks find and report (exit 1), not a harness that could not run.
    // Headers past the client's limit (a 100 MiB header, 10,000 header lines) are HTTP too: the
    // readiness gate then tells, by what reached the recording upstream, a gateway that forwards.
    if (code.startsWith('HPE_') || /parse|HTTPParser/i.test(`${err.name} ${err.message}`) || ['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_HEADERS_OVERFLOW'].includes(code)) {
      warn(`warning: target ${target} answered HEAD / with broken HTTP (${code}); running the checks, which will report it`);
      return;
    }
    throw new HarnessError('TARGET_UNREACHABLE', `target ${target}: ${code} ${err.message ?? ''}`.trim());
  }
}

/** The TLS handshake first (its failure is one line; an unreachable target is the preflight's to tell), then the preflight. */
export async function reachTarget(cfg: RunConfig, target: string, print: (s: string) => void, given?: Transport): Promise<{ transport: Transport; negotiated: string | null }> {
  const transport = given ?? loadTransport(cfg.transport, target);
  if (transport.settings.insecure) print(INSECURE_WARNING);
  const negotiated = await probeTls(target, transport).catch((e: unknown) => (e instanceof HarnessError && e.code === 'TARGET_TLS' ? Promise.reject(e) : null));
  const probe = newDispatcher(connectOptions(transport), PREFLIGHT_MS);
  await preflight(target, print, probe).finally(() => probe.close());
  return { transport, negotiated };
}
