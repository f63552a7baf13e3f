// The recording upstream a gateway under test needs, told by what the gateway speaks upstream:
// plain http, or https with HTTP/2 when it speaks HTTP/2 (a throw-away CA the gateway trusts;
// node-forge loaded only then). The one place that says so, for `demo` (cli/profiles/demo.ts), the
// self-tests' demo runs (test/helpers/demo.ts) and the detection matrix (scripts/detection.mjs).
// It is told the gateway's needs by shape (a reference fault has them): mocks/ never reads the
// reference gateway.
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { RecordingUpstream } from './server.js';

/** What the gateway asks of its upstream; a reference fault with `upstreamHttp2` (reference/h2.ts) asks TLS and HTTP/2. */
export interface UpstreamNeeds {
  upstreamHttp2?: unknown;
}

/** A started recording upstream for a gateway, and what the gateway is told of it. */
export interface GatewayUpstream {
  upstream: RecordingUpstream;
  /** The gateway's options for reaching it (its URL; its CA over TLS). */
  gateway: { upstream: string; upstreamCa?: string };
  /** How it serves, for the run's first line. */
  serves: string;
  stop(): Promise<void>;
}

/** The recording upstream, started on `host:port`, that a gateway with `needs` forwards to. */
export async function upstreamForGateway(needs: UpstreamNeeds | undefined, host = '127.0.0.1', port = 0): Promise<GatewayUpstream> {
  const tls = needs?.upstreamHttp2 ? await (await import('./tls-ca.js')).upstreamTls(host) : undefined;
  const removeCa = async () => void (tls && (await rm(dirname(tls.caFile), { recursive: true, force: true })));
  const upstream = new RecordingUpstream(tls && { key: tls.keyPem, cert: tls.certPem, http2: true });
  try {
    await upstream.start(host, port);
  } catch (e) {
    await removeCa();
    throw e;
  }
  return { upstream, gateway: { upstream: upstream.url, upstreamCa: tls?.caPem }, serves: tls ? 'https and HTTP/2' : 'http', stop: async () => (await upstream.stop(), await removeCa()) };
}
