// The one error class of the harness, with stable codes from one table (ERROR_CODES: each code
// and its one-line meaning; docs/errors.md shows the table, and test/docs/error-codes.test.ts holds
// the two the same). Only cli/program.ts turns one into an exit code and prints it, as one line
// (`gw-conformance: error GWC-BAD-FLAG: <message>`, errorLine below): every HarnessError means
// "the harness could not run" (exit 2; Ctrl-C's INTERRUPTED is 130). commander's own usage errors
// are printed with USAGE's code the same way (cli/shared/usage.ts).

/** Every code a HarnessError can carry, with what it means (the docs' table is made of these lines). */
export const ERROR_CODES = {
  USAGE: 'the command line does not parse: an unknown command or flag, a flag without its value, a required flag or argument missing, a value not among the choices',
  BAD_FLAG: 'a flag, an argument or an environment variable has a value the command does not take',
  BAD_CONFIG: 'a configuration file (gwc.yaml, a gateway\'s config, a key, a certificate) cannot be read or does not hold what it must',
  UNKNOWN_CHECK: '--only or --skip names no check, area or requirement',
  TARGET_UNREACHABLE: 'the gateway, or the running `gw-conformance mock` a run uses, cannot be reached or stopped answering',
  TARGET_NOT_HTTP: 'the target answers, but not in HTTP',
  TARGET_TLS: 'the TLS handshake with the target failed (an untrusted or expired certificate, a refused handshake, no TLS)',
  PORT_IN_USE: 'a port the harness would listen on is taken, or the mock is already serving a run',
  BAD_ADDRESS: 'an address to listen on is not host:port, or cannot be listened on',
  UNKNOWN_FAULT: 'the reference gateway was asked for a fault it does not have',
  INTERRUPTED: 'Ctrl-C stopped the run (exit 130)',
  DOCKER_UNAVAILABLE: '--gateway-image needs Docker, and none answers',
  IMAGE_NOT_FOUND: 'the gateway image cannot be found or pulled',
  GATEWAY_START: 'the gateway the harness starts did not start, or exited',
  MISSING_PACKAGE: 'a feature needs an optional package that is not installed',
  NOT_READY: 'the gateway did not forward a probe of each declared protocol in time (the readiness gate)',
  BAD_REPORT: 'a report read back (merge-reports, compare, matrix, verify) is unreadable or not one this harness can read',
  MERGE_REFUSED: 'reports that do not add up (other versions, seeds, targets, profiles) were given to merge-reports',
  BAD_TARGET: 'the --target (or --base-path) repeats a path segment the harness adds itself, e.g. /v1 (the upstream saw it twice)',
  MOCK_FAILED: 'the running `gw-conformance mock` a run was sent to failed with an error whose code is none of these',
} as const satisfies Record<string, string>;

export type HarnessErrorCode = keyof typeof ERROR_CODES;

export class HarnessError extends Error {
  constructor(
    readonly code: HarnessErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'HarnessError';
  }
}

/** The code as printed and documented: `GWC-` and the table's key, dashes for underscores (BAD_FLAG is GWC-BAD-FLAG). */
export const printedCode = (code: HarnessErrorCode): string => `GWC-${code.replace(/_/g, '-')}`;

/** The one line a HarnessError is shown as, after the tool's `gw-conformance: ` prefix. */
export const errorLine = (e: HarnessError): string => `error ${printedCode(e.code)}: ${e.message}`;

/** Whether `code` is one of the table's (a code read from another process is checked, never cast). */
export const isHarnessErrorCode = (code: unknown): code is HarnessErrorCode => typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);

/**
 * The error a running `gw-conformance mock` sent over the wire (an `error` event of its NDJSON),
 * as a HarnessError: its code when the table has it, else MOCK_FAILED with the message kept and
 * the unknown code named (quoted, cut at 40 characters).
 */
export function errorFromWire(code: unknown, message: string): HarnessError {
  if (isHarnessErrorCode(code)) return new HarnessError(code, message);
  return new HarnessError('MOCK_FAILED', `${message} (the mock's error code ${JSON.stringify(String(code)).slice(0, 40)})`);
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
