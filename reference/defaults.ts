// The reference gateway's defaults that the CLI shows before anything runs (the help of
// `reference`), apart from the gateway (./gateway.ts) so that showing them loads nothing else.

/**
 * The upstream time-out of the gateway that `demo` and the self-tests run: short, so the check
 * of an upstream that never answers (errors.upstream.timeout, ERR-DOWN-1) sees the gateway
 * give up well within a check's time limit. It bounds only the wait for response headers once
 * the request has been sent, and counts only the upstream's silence, not this process's holds
 * (src/core/stall.ts: the gateway shares its process with the harness and the upstream). Bound
 * to the upload instead, it reset a 32 MB upload whenever the process was held 2 s mid-body.
 */
export const DEMO_UPSTREAM_TIMEOUT_MS = 2000;
