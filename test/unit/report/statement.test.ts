// The signed statement of a certify folder: DSSE's pre-authentication encoding and Ed25519
// signatures held to the DSSE specification's test vectors; certify signs (key from a file, or
// the PEM in GWC_SIGNING_KEY), verify --public-key checks offline and refuses, in one line naming
// the file and exit 1, an edited verdict, edited counts, an edited payload, a swapped signature
// and the wrong public key; the key is in no output. One check (loopback only) keeps it short.
import { createPrivateKey, generateKeyPairSync, sign, verify as verifySignature } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { DEMO_UPSTREAM_TIMEOUT_MS, ReferenceGateway } from '../../../reference/gateway.js';
import { main } from '../../../cli/program.js';
import { pae, PAYLOAD_TYPE, signStatement, STATEMENT_FILE, type Envelope, type Statement } from '../../../src/report/certify/statement.js';
import { freePort } from '../../helpers/cli.js';

// The DSSE specification's vectors (secure-systems-lab/dsse, protocol.md and testvectors/vectors.json):
// key A is RFC 8032's Ed25519 TEST 1, so its signatures are deterministic.
const SEED_A = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
const STATEMENT_B64 = 'eyJfdHlwZSI6Imh0dHBzOi8vaW4tdG90by5pby9TdGF0ZW1lbnQvdjEifQ==';
const VECTORS = [
  { id: 'single-signature', type: PAYLOAD_TYPE, payload: STATEMENT_B64, pae: '445353457631203238206170706c69636174696f6e2f766e642e696e2d746f746f2b6a736f6e203433207b225f74797065223a2268747470733a2f2f696e2d746f746f2e696f2f53746174656d656e742f7631227d', sig: '2WAfaHm5jluo0w+0rk8uVkluELJYWjSmU9x7EUzx+AyteDGJ4/nqyJXfmAUVFIAoQafWm7AxBZNw5M9ixNHiCA==' },
  { id: 'non-ascii-payload-type', type: 'application/vnd.exämple+json', payload: STATEMENT_B64, pae: '445353457631203239206170706c69636174696f6e2f766e642e6578c3a46d706c652b6a736f6e203433207b225f74797065223a2268747470733a2f2f696e2d746f746f2e696f2f53746174656d656e742f7631227d', sig: 'xmSk/ug66ysT7ayhkCIjhAq42zgZXSsEWuzUaNL7w2eGAdF/NU6/fRXPtmfN+5DNSAs5/i2lUnHjbbjPsu0tAw==' },
  { id: 'empty-payload', type: PAYLOAD_TYPE, payload: '', pae: '445353457631203238206170706c69636174696f6e2f766e642e696e2d746f746f2b6a736f6e203020', sig: 'gSggCAaTLTYyRH6FIDBem6meyIynsYy8RTHVzwx9tnTb7Bg/1jMWnuVgI/gffqmbsC2VX5/jHfkkDqsj7CDbDg==' },
];
const keyA = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(SEED_A, 'hex')]), format: 'der', type: 'pkcs8' });

describe('DSSE pre-authentication encoding and Ed25519 signatures', () => {
  it("are the DSSE specification's: its example's PAE, and each vector's PAE and signature", () => {
    expect(pae('http://example.com/HelloWorld', Buffer.from('hello world')).toString()).toBe('DSSEv1 29 http://example.com/HelloWorld 11 hello world');
    for (const v of VECTORS) {
      const encoded = pae(v.type, Buffer.from(v.payload, 'base64'));
      expect(encoded.toString('hex'), v.id).toBe(v.pae);
      expect(sign(null, encoded, keyA).toString('base64'), v.id).toBe(v.sig);
    }
    // payload-type-swapped: the signature covers the in-toto type, not the one the envelope claims.
    expect(verifySignature(null, pae('application/vnd.example.other+json', Buffer.from(STATEMENT_B64, 'base64')), keyA, Buffer.from(VECTORS[0].sig, 'base64'))).toBe(false);
  });
});

async function withReference<T>(upstreamPort: number, fn: (target: string) => Promise<T>): Promise<T> {
  const gw = new ReferenceGateway({ upstream: `http://127.0.0.1:${upstreamPort}`, upstreamTimeoutMs: DEMO_UPSTREAM_TIMEOUT_MS });
  try {
    return await fn(await gw.start('127.0.0.1', 0));
  } finally {
    await gw.stop();
  }
}

/** The CLI in this process; every line it prints is kept (the key must be in none). */
const printed: string[] = [];
async function gwc(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (s) => void out.push(s), err: (s) => void err.push(s), env, untilStopped: async () => undefined });
  printed.push(...out, ...err);
  return { code, out, err };
}

/** A copy of the folder, edited; verify of it must refuse before anything runs (its target answers nothing). */
async function refusal(folder: string, edit: (dir: string) => void, publicKey: string): Promise<{ code: number; err: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'gwc-statement-edit-'));
  cpSync(folder, dir, { recursive: true });
  edit(dir);
  return gwc(['verify', dir, '--target', 'http://127.0.0.1:1', '--public-key', publicKey]);
}

const editJson = (file: string, change: (doc: any) => void) => { // eslint-disable-line @typescript-eslint/no-explicit-any
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  change(doc);
  writeFileSync(file, JSON.stringify(doc, null, 2));
};

const envelopeOf = (dir: string) => JSON.parse(readFileSync(join(dir, STATEMENT_FILE), 'utf8')) as Envelope;
const statementOf = (e: Envelope) => JSON.parse(Buffer.from(e.payload, 'base64').toString('utf8')) as Statement;
const filesUnder = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)]));

describe('certify --signing-key, verify --public-key', () => {
  it('signs the folder; verify checks it offline, then re-runs; edits, a swapped signature and the wrong key are refused in one line (exit 1); the key is in no output', { timeout: 60_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'gwc-statement-'));
    const keys = join(root, 'keys');
    expect((await gwc(['keygen', '--out', keys])).code).toBe(0);
    expect(statSync(join(keys, 'gwc-signing.key')).mode & 0o777).toBe(0o600);
    const pem = readFileSync(join(keys, 'gwc-signing.key'), 'utf8');
    const pub = join(keys, 'gwc-signing.pub');
    const up = await freePort();
    const certifyArgs = (out: string) => ['certify', '--upstream-listen', `127.0.0.1:${up}`, '--only', 'messages.path.preserved', '--seed', '3', '--implementation-name', 'R', '--implementation-version', '1', '--out', out, '--token', 'sk-never-written-123', '--reporter', 'json'];
    const [signed, viaEnv, unsigned] = [join(root, 'signed'), join(root, 'env'), join(root, 'unsigned')];
    await withReference(up, async (target) => {
      const a = await gwc([...certifyArgs(signed), '--target', target, '--signing-key', join(keys, 'gwc-signing.key')]);
      expect(a.code, a.err.join('\n')).toBe(0);
      expect(a.out.at(-1)).toMatch(/^certify: signed statement\.intoto\.jsonl \(in-toto statement in a DSSE envelope, Ed25519 key [0-9a-f]{64}\) over 6 files$/);
      const b = await gwc([...certifyArgs(viaEnv), '--target', target], { GWC_SIGNING_KEY: pem });
      expect(b.out.at(-1)).toMatch(/^certify: signed statement\.intoto\.jsonl/);
      const c = await gwc([...certifyArgs(unsigned), '--target', target]);
      expect(c.out.at(-1)).toBe('certify: not signed (no --signing-key or GWC_SIGNING_KEY): no statement.intoto.jsonl written');
      expect(filesUnder(unsigned).some((f) => f.endsWith(STATEMENT_FILE))).toBe(false);
      const ok = await gwc(['verify', signed, '--target', target, '--public-key', pub]);
      expect(ok.out[0]).toMatch(/^verify: statement\.intoto\.jsonl: signature verified with key [0-9a-f]{64}; 6 signed files match their digests; the signed verdicts match conformance-report\.yaml and report\.json$/);
      expect(ok.out.at(-1)).toBe('Result: reproduced.');
      expect(ok.code).toBe(0);
    });

    // The folder's README names the statement and how to check it only when there is one.
    expect(readFileSync(join(signed, 'README.md'), 'utf8')).toMatch(/`statement\.intoto\.jsonl`: .*`verify \. --public-key FILE`/);
    expect(readFileSync(join(unsigned, 'README.md'), 'utf8')).not.toContain(STATEMENT_FILE);
    const statement = statementOf(envelopeOf(signed));
    expect(statement).toMatchObject({ _type: 'https://in-toto.io/Statement/v1', predicateType: 'https://gw-conformance.dev/conformance/v1', predicate: { seed: 3, verdicts: [{ check: 'messages.path.preserved', requirements: ['MSG-PATH-1'], level: 'MUST', status: 'pass' }] } });
    expect(statement.subject.map((s) => s.name)).toEqual(['README.md', 'conformance-report.yaml', 'junit.xml', 'report.html', 'report.json', 'transcript.jsonl']);

    const refused = (line: string) => ({ code: 1, err: [`gw-conformance: verify: ${line}`] });
    // (1) A verdict changed in conformance-report.yaml.
    const verdict = await refusal(signed, (d) => {
      const f = join(d, 'conformance-report.yaml');
      const doc = YAML.parse(readFileSync(f, 'utf8'));
      doc.profiles[0].checks.failed = doc.profiles[0].checks.passed.splice(0);
      writeFileSync(f, YAML.stringify(doc));
    }, pub);
    expect(verdict).toMatchObject(refused('conformance-report.yaml does not match its signed digest'));
    // (2) Counts adjusted in report.json.
    const counts = await refusal(signed, (d) => editJson(join(d, 'report.json'), (r) => Object.assign(r.summary, { pass: 0, fail: 1 })), pub);
    expect(counts).toMatchObject(refused('report.json does not match its signed digest'));
    // (3) The payload edited, a signature by another key swapped in, the wrong public key.
    const noSignature = /^no signature verifies with the public key [0-9a-f]{64} \(the statement was changed, or signed by another key\)$/;
    const payload = await refusal(signed, (d) => {
      const e = envelopeOf(d);
      const s = statementOf(e);
      s.predicate.verdicts[0].status = 'fail';
      writeFileSync(join(d, STATEMENT_FILE), JSON.stringify({ ...e, payload: Buffer.from(JSON.stringify(s)).toString('base64') }));
    }, pub);
    const other = generateKeyPairSync('ed25519');
    const swapped = await refusal(signed, (d) => {
      const e = envelopeOf(d);
      writeFileSync(join(d, STATEMENT_FILE), JSON.stringify({ ...e, signatures: [{ sig: sign(null, pae(e.payloadType, Buffer.from(e.payload, 'base64')), other.privateKey).toString('base64') }] }));
    }, pub);
    const otherPub = join(root, 'other.pub');
    writeFileSync(otherPub, other.publicKey.export({ type: 'spki', format: 'pem' }));
    const wrongKey = await refusal(signed, () => undefined, otherPub);
    for (const r of [payload, swapped, wrongKey]) {
      expect(r.code).toBe(1);
      expect(r.err).toHaveLength(1);
      expect(r.err[0].replace('gw-conformance: verify: statement.intoto.jsonl: ', '')).toMatch(noSignature);
    }
    // A statement signed by the right key whose verdicts are not those of the files (their digests
    // signed as they are): the third step names the file.
    const resigned = await refusal(signed, (d) => {
      const s = statementOf(envelopeOf(d));
      s.predicate.verdicts[0].status = 'fail';
      writeFileSync(join(d, STATEMENT_FILE), JSON.stringify(signStatement(s, createPrivateKey(pem))));
    }, pub);
    expect(resigned.code).toBe(1);
    expect(resigned.err[0]).toMatch(/^gw-conformance: verify: report\.json does not match the signed statement: messages\.path\.preserved is \{.*"status":"pass"\} there, the statement signs \{.*"status":"fail"\}$/);
    // No statement with --public-key: exit 1; a key file that is no public key: exit 2.
    expect(await gwc(['verify', unsigned, '--target', 'http://127.0.0.1:1', '--public-key', pub])).toMatchObject(refused('statement.intoto.jsonl is missing: the folder is not signed (certify signs it when given --signing-key or GWC_SIGNING_KEY)'));
    // A variable holding no PEM and naming no file: exit 2 before the run, its value not shown.
    const odd = await gwc([...certifyArgs(join(root, 'odd')), '--target', 'http://127.0.0.1:1'], { GWC_SIGNING_KEY: 'MC4CAQAwBQYDK2VwBCIEIOddValue' });
    expect(odd).toMatchObject({ code: 2, err: ['gw-conformance: error GWC-BAD-FLAG: GWC_SIGNING_KEY: neither a PEM key nor a file that can be read (ENOENT)'] });
    writeFileSync(join(root, 'bad.pub'), 'not a key\n');
    const bad = await gwc(['verify', signed, '--target', 'http://127.0.0.1:1', '--public-key', join(root, 'bad.pub')]);
    expect(bad.code).toBe(2);
    expect(bad.err).toEqual([`gw-conformance: error GWC-BAD-FLAG: --public-key ${join(root, 'bad.pub')}: not a PEM public key (the Ed25519 public key \`gw-conformance keygen\` writes beside the private one)`]);

    // The key in none of its forms in any file written or any line printed: the PEM's body, the raw
    // 32 bytes in base64 (standard and URL-safe) and in hex; nor the credential.
    const raw = Buffer.from(createPrivateKey(pem).export({ format: 'jwk' }).d!, 'base64url');
    const forms = [pem.split('\n').filter((l) => l && !l.startsWith('-----')).join(''), raw.toString('base64'), raw.toString('base64url'), raw.toString('hex'), 'sk-never-written-123'];
    const outputs = [...[signed, viaEnv, unsigned].flatMap(filesUnder).map((f) => readFileSync(f, 'utf8')), printed.join('\n')];
    expect(outputs.length).toBeGreaterThan(12);
    for (const text of outputs) for (const form of forms) expect(text.includes(form), form.slice(0, 6)).toBe(false);
  });
});
