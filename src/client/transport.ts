// How the harness connects to the gateway under test: TLS (extra trusted CAs, no verification,
// a client certificate for mutual TLS) and HTTP/2 (ALPN h2 when the gateway offers it, or
// prior-knowledge h2c on a plain port), and how a pool of connections is closed (answers still
// coming get a grace period). The files are read and checked before the run starts; a TLS
// failure is told in one line, never as the TLS library's own text.
import { readFileSync } from 'node:fs';
import { connect as tlsConnect, rootCertificates } from 'node:tls';
import { isIP } from 'node:net';
import { Agent, Client, H2CClient } from 'undici';
import { HarnessError } from '../core/errors.js';

import type { Http2Mode } from './http2-modes.js';

export { HTTP2_MODES, type Http2Mode } from './http2-modes.js';

/** The transport settings as the user gave them (file names). */
export interface TransportSettings {
  caFile?: string;
  insecure: boolean;
  clientCert?: string;
  clientKey?: string;
  http2: Http2Mode;
}

/** The settings with their files read and checked: what the dispatchers are made from. */
export interface Transport {
  settings: TransportSettings;
  tls: { ca?: string[]; cert?: string; key?: string; rejectUnauthorized: boolean };
}

/** What a report says of the transport. */
export interface TransportSummary {
  scheme: 'http' | 'https';
  http2: Http2Mode;
  insecure: boolean;
  caFile?: string;
  clientCert?: string;
}

const PEM = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]+?-----END \1-----/g;

/** Reads a PEM file, or one line naming the flag and what is wrong (exit 2). */
function readPem(flag: string, file: string, kinds: RegExp): { text: string; blocks: string[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new HarnessError('BAD_FLAG', `${flag} ${file}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const blocks = [...text.matchAll(PEM)].filter((m) => kinds.test(m[1])).map((m) => m[0]);
  if (!blocks.length) throw new HarnessError('BAD_FLAG', `${flag} ${file}: not a PEM file of the expected kind (no "-----BEGIN ${kinds === CERT ? 'CERTIFICATE' : 'PRIVATE KEY'}-----" block)`);
  return { text, blocks };
}
const CERT = /^CERTIFICATE$/;
const KEY = /^(RSA |EC |ENCRYPTED )?PRIVATE KEY$/;

/** Reads and checks the files of the settings for a target; bad input is one line (exit 2). */
export function loadTransport(s: TransportSettings, target: string): Transport {
  const https = target.startsWith('https:');
  if ((s.clientCert === undefined) !== (s.clientKey === undefined)) throw new HarnessError('BAD_FLAG', '--client-cert and --client-key go together (the certificate and its private key, PEM)');
  if (s.http2 === 'h2c' && https) throw new HarnessError('BAD_FLAG', '--http2 h2c is HTTP/2 over plain text (prior knowledge): give an http:// target, or --http2 h2 for an https:// one');
  if (s.http2 === 'h2' && !https) throw new HarnessError('BAD_FLAG', '--http2 h2 is negotiated in the TLS handshake (ALPN): give an https:// target, or --http2 h2c for HTTP/2 on a plain port');
  if (!https && (s.caFile || s.insecure || s.clientCert)) throw new HarnessError('BAD_FLAG', `--ca-file, --insecure, --client-cert and --client-key apply to an https:// target; the target is ${target}`);
  const ca = s.caFile ? readPem('--ca-file', s.caFile, CERT).blocks : undefined;
  const cert = s.clientCert ? readPem('--client-cert', s.clientCert, CERT).text : undefined;
  const key = s.clientKey ? readPem('--client-key', s.clientKey, KEY).text : undefined;
  if (key && /ENCRYPTED PRIVATE KEY|Proc-Type: 4,ENCRYPTED/.test(key)) throw new HarnessError('BAD_FLAG', `--client-key ${s.clientKey}: the key is encrypted; give it without a passphrase`);
  return { settings: s, tls: { ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}), rejectUnauthorized: !s.insecure } };
}


/** The connect options of a dispatcher to the gateway (TLS and HTTP/2), after loadTransport. */
export type ConnectOptions = { connect?: Record<string, unknown>; allowH2?: boolean; useH2c?: boolean };
export function connectOptions(t: Transport | undefined): ConnectOptions {
  if (!t) return {};
  const { ca, ...rest } = t.tls;
  // The extra CAs are added to Node's own trust store, not put in its place.
  const connect = { ...rest, ...(ca ? { ca: [...rootCertificates, ...ca] } : {}) };
  if (t.settings.http2 === 'h2c') return { connect, allowH2: true, useH2c: true };
  return { connect, allowH2: t.settings.http2 === 'h2' };
}

/** The dispatcher every request to the gateway goes through. */
export function newDispatcher(options: ConnectOptions, timeoutMs: number): Agent {
  const { useH2c, ...rest } = options;
  const base = { headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connectTimeout: Math.min(timeoutMs, 5000), ...rest };
  // undici 7's Pool drops useH2c: an h2c connection is made by its H2CClient (one connection per origin, many streams on it).
  if (useH2c) return new Agent({ ...base, factory: (origin: string | URL, opts: object) => new H2CClient(origin, { ...opts, ...base } as H2CClient.Options) } as Agent.Options);
  return new Agent(base as Agent.Options);
}

/** How long pending answers get when the client closes, before their sockets are destroyed. */
export const CLOSE_GRACE_MS = 1000;

/**
 * Closes an agent: answers still coming get CLOSE_GRACE_MS to end, then the agent is destroyed.
 * Not close() then destroy(): undici leaves a body that is being read pending forever then.
 */
export async function closeAgent(agent: Agent, pending: Set<Promise<unknown>>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), CLOSE_GRACE_MS)));
  const how = pending.size ? await Promise.race([Promise.allSettled([...pending]).then(() => 'ended' as const), grace]) : 'ended';
  clearTimeout(timer);
  if (how === 'late') await agent.destroy(new Error('the client closed with this answer still coming')).catch(() => {});
  else await agent.close().catch(() => {});
}

/** A single-connection client to the gateway with the run's transport (connection reuse checks). */
export function newClient(origin: string, options: ConnectOptions): Client {
  if (options.useH2c) return new H2CClient(origin, { pipelining: 1 }) as unknown as Client;
  return new Client(origin, { pipelining: 1, ...options } as Client.Options);
}

export function summarize(t: Transport | undefined, target: string): TransportSummary {
  const s = t?.settings;
  return {
    scheme: target.startsWith('https:') ? 'https' : 'http',
    http2: s?.http2 ?? 'off',
    insecure: s?.insecure ?? false,
    ...(s?.caFile ? { caFile: s.caFile } : {}),
    ...(s?.clientCert ? { clientCert: s.clientCert } : {}),
  };
}

const HINT = 'give its CA with --ca-file, or (for a test set-up only) --insecure';

/**
 * One line for a TLS failure (from the error's code), or null when the error is not one.
 * The TLS library's own message is never shown: it names the cause in its terms, not the fix.
 */
export function tlsFailure(e: unknown, host?: string): string | null {
  const err = e as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = String(err.cause?.code ?? err.code ?? '');
  const untrusted: Record<string, string> = {
    UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'unable to verify the first certificate',
    UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its issuer is not a trusted CA',
    UNABLE_TO_GET_ISSUER_CERT: 'its issuer is not a trusted CA',
    SELF_SIGNED_CERT_IN_CHAIN: 'a self-signed certificate in its chain',
    DEPTH_ZERO_SELF_SIGNED_CERT: 'it is self-signed',
    CERT_SIGNATURE_FAILURE: 'its signature does not verify',
  };
  if (untrusted[code]) return `TLS: the gateway's certificate is not trusted (${untrusted[code]}); ${HINT}`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `TLS: the gateway's certificate is not for this host name (${host ?? 'the target\'s host'} is not among its names); use a host name the certificate names, or (for a test set-up only) --insecure`;
  if (code === 'CERT_HAS_EXPIRED') return `TLS: the gateway's certificate has expired; renew it, or (for a test set-up only) --insecure`;
  if (code === 'CERT_NOT_YET_VALID') return `TLS: the gateway's certificate is not valid yet (check the clocks); or (for a test set-up only) --insecure`;
  if (/ALERT_HANDSHAKE_FAILURE|ALERT_PROTOCOL_VERSION|NO_SHARED_CIPHER/.test(code)) return 'TLS: the gateway refused the handshake: no TLS version, cipher or client certificate that both sides accept (a gateway asking for a client certificate may answer so: give one with --client-cert and --client-key)';
  if (/CERTIFICATE_REQUIRED|ALERT_BAD_CERTIFICATE|ALERT_UNKNOWN_CA/.test(code))
    return 'TLS: the gateway refused the handshake: it asks for a client certificate it trusts (mutual TLS); give one with --client-cert and --client-key';
  if (/WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|RECORD_LAYER_FAILURE|HTTP_REQUEST/.test(code)) return 'TLS: the gateway does not speak TLS on this port (the handshake got plain HTTP back); use an http:// target';
  if (/^ERR_SSL_|^ERR_TLS_|^ERR_OSSL_/.test(code)) return `TLS: the handshake with the gateway failed (${code})`;
  return null;
}

/**
 * Tries the TLS handshake before anything else is sent, and returns the protocol the gateway
 * agrees to (ALPN: `h2` or `http/1.1`; `h2c` or `http/1.1` for a plain target). A TLS failure
 * is a HarnessError of one line. A HEAD request follows the handshake: under TLS 1.3 a gateway
 * refuses a missing or unknown client certificate only after it, when the client reads.
 */
export async function probeTls(target: string, t: Transport | undefined): Promise<string> {
  const u = new URL(target);
  if (u.protocol !== 'https:') return t?.settings.http2 === 'h2c' ? 'h2c' : 'http/1.1';
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const port = Number(u.port || 443);
  await handshake(host, port, t, ['http/1.1'], `HEAD / HTTP/1.1\r\nhost: ${u.host}\r\nconnection: close\r\n\r\n`);
  return t?.settings.http2 === 'h2' ? handshake(host, port, t, ['h2', 'http/1.1']) : 'http/1.1';
}

/**
 * One TLS connection: resolves with the agreed protocol once the handshake is done (with `send`,
 * once anything came back, the connection closed, or it stayed silent for 5 s: a gateway that does
 * not answer is the preflight's to judge). A TLS failure rejects with one line.
 */
function handshake(host: string, port: number, t: Transport | undefined, alpn: string[], send?: string): Promise<string> {
  const opts = connectOptions(t).connect ?? {};
  return new Promise((resolve, reject) => {
    let agreed: string | undefined;
    const done = () => {
      s.destroy();
      resolve(agreed!);
    };
    const s = tlsConnect({ ...opts, host, port, ...(isIP(host) ? {} : { servername: host }), ALPNProtocols: alpn }, () => {
      agreed = s.alpnProtocol || 'http/1.1';
      if (!send) return done();
      s.write(send);
      s.once('data', done);
      // A TLS alert comes as an error before the close: the close alone is no failure.
      s.once('close', done);
    });
    s.on('error', (e) => {
      const line = tlsFailure(e, host);
      if (line) reject(new HarnessError('TARGET_TLS', line));
      else if (agreed) done();
      else reject(new HarnessError('TARGET_UNREACHABLE', `target https://${isIP(host) === 6 ? `[${host}]` : host}:${port} is unreachable (${(e as NodeJS.ErrnoException).code ?? e.message})`));
    });
    s.setTimeout(5000, () => (agreed ? done() : s.destroy(new Error('the TLS handshake did not finish in 5 s'))));
  });
}
