// A throw-away certificate authority for the recording upstream over TLS (--upstream-tls) and for
// the self-tests' TLS terminators: a CA made at start, and the server (or client) certificates it
// signs for loopback names. Keys come from node:crypto; the certificates are written with
// node-forge (no hand-written ASN.1), loaded only when TLS is asked for.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isIP } from 'node:net';
import type * as Forge from 'node-forge';
import { importOptional } from '../../src/core/optional.js';

type ForgeModule = typeof Forge;
let forgeLoaded: ForgeModule | undefined;
async function forge(): Promise<ForgeModule> {
  forgeLoaded ??= ((await importOptional('tls', () => import('node-forge'))) as unknown as { default: ForgeModule }).default;
  return forgeLoaded;
}

/** A certificate and its private key, both PEM. */
export interface KeyPair {
  certPem: string;
  keyPem: string;
}

export interface IssueOptions {
  /** A client certificate (mutual TLS) rather than a server one. */
  client?: boolean;
  /** Already expired (a test of the expired-certificate message). */
  expired?: boolean;
}

const DAY = 86_400_000;

function newKeys(f: ForgeModule): { pub: Forge.pki.PublicKey; priv: Forge.pki.rsa.PrivateKey; keyPem: string } {
  // node:crypto makes the key (fast, native); forge only reads it to sign with.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const priv = f.pki.privateKeyFromPem(privateKey) as Forge.pki.rsa.PrivateKey;
  return { pub: f.pki.rsa.setPublicKey(priv.n, priv.e), priv, keyPem: privateKey };
}

function serial(): string {
  // Positive (high bit clear), unique per certificate.
  const b = randomBytes(16);
  b[0] &= 0x7f;
  return b.toString('hex');
}

/** The names a certificate is good for: IP addresses and DNS names, as subjectAltName entries. */
function altNames(names: string[]): Array<{ type: number; ip?: string; value?: string }> {
  return names.map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n }));
}

export class ThrowAwayCa {
  private constructor(
    private readonly f: ForgeModule,
    private readonly cert: Forge.pki.Certificate,
    private readonly key: Forge.pki.rsa.PrivateKey,
    /** The CA certificate, PEM: what a client is told to trust. */
    readonly certPem: string,
  ) {}

  static async create(name = 'gw-conformance throw-away CA'): Promise<ThrowAwayCa> {
    const f = await forge();
    const k = newKeys(f);
    const cert = f.pki.createCertificate();
    cert.publicKey = k.pub;
    cert.serialNumber = serial();
    cert.validity.notBefore = new Date(Date.now() - DAY);
    cert.validity.notAfter = new Date(Date.now() + 30 * DAY);
    const subject = [{ name: 'commonName', value: name }];
    cert.setSubject(subject);
    cert.setIssuer(subject);
    cert.setExtensions([
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
      { name: 'subjectKeyIdentifier' },
    ]);
    cert.sign(k.priv, f.md.sha256.create());
    return new ThrowAwayCa(f, cert, k.priv, f.pki.certificateToPem(cert));
  }

  /** A certificate for these names (the first is the common name), signed by this CA. */
  issue(names: string[], opts: IssueOptions = {}): KeyPair {
    const f = this.f;
    const k = newKeys(f);
    const cert = f.pki.createCertificate();
    cert.publicKey = k.pub;
    cert.serialNumber = serial();
    const now = Date.now();
    cert.validity.notBefore = new Date(opts.expired ? now - 10 * DAY : now - DAY);
    cert.validity.notAfter = new Date(opts.expired ? now - 2 * DAY : now + 30 * DAY);
    cert.setSubject([{ name: 'commonName', value: names[0] ?? 'gw-conformance' }]);
    cert.setIssuer(this.cert.subject.attributes);
    cert.setExtensions([
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: !opts.client, clientAuth: Boolean(opts.client) },
      ...(names.length ? [{ name: 'subjectAltName', altNames: altNames(names) }] : []),
      { name: 'authorityKeyIdentifier', keyIdentifier: this.cert.generateSubjectKeyIdentifier().getBytes() },
    ]);
    cert.sign(this.key, f.md.sha256.create());
    return { certPem: f.pki.certificateToPem(cert), keyPem: k.keyPem };
  }
}

/** The recording upstream's TLS material: its certificate and key, and the CA written to a file the gateway can be told to trust. */
export interface UpstreamTls extends KeyPair {
  caPem: string;
  caFile: string;
}

/** The names a server listening on `host` answers to: the host itself, and the loopback names. */
export function serverNames(host: string): string[] {
  return [...new Set([host, '127.0.0.1', '::1', 'localhost'].filter((h) => h && h !== '0.0.0.0' && h !== '::'))];
}

/** Makes a CA and a server certificate for `host`, and writes the CA (PEM) to a file in a fresh temporary folder. */
export async function upstreamTls(host: string): Promise<UpstreamTls> {
  const ca = await ThrowAwayCa.create();
  const pair = ca.issue(serverNames(host));
  const caFile = join(mkdtempSync(join(tmpdir(), 'gwc-upstream-ca-')), 'upstream-ca.pem');
  writeFileSync(caFile, ca.certPem);
  return { ...pair, caPem: ca.certPem, caFile };
}
