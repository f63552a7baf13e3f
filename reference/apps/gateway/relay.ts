// The telemetry relay of the reference apps gateway: the client's OTLP posts (traces, metrics,
// logs) forwarded to the configured collectors.
import type http from 'node:http';
import type { GatewayContext } from './context.js';
import { apiError, readBody } from './http.js';

/** Forwards the client's OTLP post verbatim; answers 200 at once, whatever the collector does (APP-TEL-4). */
export async function relay(ctx: GatewayContext, req: http.IncomingMessage, res: http.ServerResponse, p: string): Promise<void> {
  const body = await readBody(req);
  const signal = p.slice(4) as 'traces' | 'metrics' | 'logs';
  const dests = (ctx.cfg.telemetry?.forwardTo ?? []).filter((d) => d[signal]);
  const sends = dests.map((d) =>
    fetch(`${d.url}${p}`, { method: 'POST', headers: { 'content-type': String(req.headers['content-type'] ?? 'application/x-protobuf') }, body: new Uint8Array(body), signal: AbortSignal.timeout(2000) }).then(
      async (r) => {
        await r.arrayBuffer().catch(() => undefined);
        if (!r.ok) throw new Error(`HTTP ${r.status}`);
      },
    ),
  );
  if (ctx.is('apps-telemetry-breaks-inference')) {
    const results = await Promise.allSettled(sends);
    if (results.some((r) => r.status === 'rejected')) return apiError(res, 502, 'api_error', 'telemetry collector unavailable');
  } else for (const s of sends) s.catch((e: Error) => ctx.audit('otel.forward.failed', { error: e.message }));
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{}');
}
