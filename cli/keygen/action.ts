// What `gw-conformance keygen --out DIR` does (registered by ./command.ts, loaded when it
// runs): an Ed25519 key pair for signing certify folders (certify --signing-key, verify
// --public-key): the private key in PEM PKCS#8 with mode 0600, the public key in PEM beside it. An existing key is never overwritten; neither key is printed.
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../../src/core/errors.js';
import { keyIdOf } from '../../src/report/certify/statement.js';
import type { Io } from '../shared/context.js';

export const PRIVATE_KEY_FILE = 'gwc-signing.key';
export const PUBLIC_KEY_FILE = 'gwc-signing.pub';

/** Writes the pair into `out` (made when missing); an existing key is refused. */
export function keygen(o: { out: string }, io: Io): void {
  const priv = join(o.out, PRIVATE_KEY_FILE);
  const pub = join(o.out, PUBLIC_KEY_FILE);
  for (const f of [priv, pub]) if (existsSync(f)) throw new HarnessError('BAD_FLAG', `keygen: ${f} exists; a key is never overwritten (remove it, or give another --out)`);
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  mkdirSync(o.out, { recursive: true });
  // The mode is given at creation: the private key is never readable by others, not even for a moment.
  writeFileSync(priv, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  writeFileSync(pub, publicKey.export({ type: 'spki', format: 'pem' }), { flag: 'wx' });
  io.out(`keygen: wrote ${priv} (private, mode 0600: certify --signing-key) and ${pub} (public: verify --public-key); key id ${keyIdOf(publicKey)}`);
}
