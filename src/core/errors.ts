// Typed harness errors with stable codes. Only src/cli.ts turns them into an exit code
// (one place decides how the process ends): every HarnessError means "the harness could not run" (exit 2).
export type HarnessErrorCode =
  | 'BAD_FLAG'
  | 'BAD_CONFIG'
  | 'UNKNOWN_CHECK'
  | 'TARGET_UNREACHABLE'
  | 'TARGET_NOT_HTTP'
  | 'TARGET_TLS'
  | 'PORT_IN_USE'
  | 'BAD_ADDRESS'
  | 'UNKNOWN_FAULT'
  | 'INTERRUPTED'
  // Gateway images (src/launch/image.ts)
  | 'DOCKER_UNAVAILABLE'
  | 'IMAGE_NOT_FOUND'
  | 'GATEWAY_START'
  // An optional package a feature needs is not installed (src/core/optional.ts)
  | 'MISSING_PACKAGE'
  // Readiness gate (src/runner/ready.ts)
  | 'NOT_READY'
  | 'BAD_TARGET'
  // Reports read back (merge-reports, verify: src/report/)
  | 'BAD_REPORT'
  | 'MERGE_REFUSED';

export class HarnessError extends Error {
  constructor(
    readonly code: HarnessErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'HarnessError';
  }
}

/** Parses "host:port" (or "[::1]:port", or a bare port) into parts; loopback host by default. */
export function parseListen(value: string, flag: string): { host: string; port: number } {
  // A host needs its colon before the port: "127.0.0.1" is a host without a port, not 127.0.0.:1.
  const m = /^(?:(?:\[([^\]]+)\]|([^:]+)):)?(\d+)$/.exec(value.trim());
  if (!m) throw new HarnessError('BAD_ADDRESS', `${flag}: expected host:port (e.g. 127.0.0.1:18080) or a port, got "${value}"${/^[^:]+$/.test(value.trim()) || /^\[[^\]]+\]$/.test(value.trim()) ? ': no port' : ''}`);
  const port = Number(m[3]);
  if (port > 65535) throw new HarnessError('BAD_ADDRESS', `${flag}: port ${port} is out of range`);
  return { host: m[1] ?? m[2] ?? '127.0.0.1', port };
}

export function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** Starts `server` on host:port; a taken port or a bad address is a HarnessError naming `what`. */
export function listen(server: import('node:net').Server, host: string, port: number, what: string): Promise<import('node:net').AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (err.code === 'EADDRINUSE') reject(new HarnessError('PORT_IN_USE', `${what}: ${host}:${port} is already in use`));
      else reject(new HarnessError('BAD_ADDRESS', `${what}: cannot listen on ${host}:${port} (${err.code ?? err.message})`));
    };
    const onListening = () => {
      server.off('error', onError);
      resolve(server.address() as import('node:net').AddressInfo);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen({ host, port });
  });
}
