// The HTTP/2 modes of the gateway client, apart from the transport (./transport.ts) so that the
// option table (src/config/options.ts) names them without loading undici at start-up.

/** HTTP/2 to the gateway: `off` (HTTP/1.1), `h2` (ALPN over TLS, HTTP/1.1 when not offered), `h2c` (prior knowledge, plain text). */
export const HTTP2_MODES = ['off', 'h2', 'h2c'] as const;
export type Http2Mode = (typeof HTTP2_MODES)[number];
