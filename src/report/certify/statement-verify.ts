// verify --public-key: the signed statement of a certify folder checked offline, before anything
// runs. First the DSSE signature (Ed25519 over the PAE of the payload), then each subject file's
// SHA-256, then the signed verdicts against conformance-report.yaml and report.json. The first
// failure is one line naming the file (a StatementRefusal: verify ends with exit 1).
import { createPublicKey, verify as verifySignature, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import YAML from 'yaml';
import { HarnessError } from '../../core/errors.js';
import { CONFORMANCE_FILE, profileResult, type ConformanceReport } from './certify.js';
import { keyIdOf, pae, PAYLOAD_TYPE, PREDICATE_TYPE, sha256, STATEMENT_FILE, STATEMENT_TYPE, verdictOfResult, type Envelope, type Statement } from './statement.js';
import type { RunReport } from '../shared/types.js';

/** The folder is not what was signed: the message is the one line verify prints. */
export class StatementRefusal extends Error {}

const refuse = (line: string): never => {
  throw new StatementRefusal(`verify: ${line}`);
};

/** The files whose verdicts the predicate is compared with: a statement that leaves one out is refused. */
const REQUIRED_SUBJECTS = [CONFORMANCE_FILE, 'report.json', 'transcript.jsonl'];

/** An Ed25519 public key from PEM (SubjectPublicKeyInfo); anything else is one line naming the file (exit 2). */
export function publicKeyOf(pem: string, from: string): KeyObject {
  // A private key would do (its public half is in it), but it has no business on a verifier's side.
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem)) throw new HarnessError('BAD_FLAG', `${from}: a private key; give the public key (\`keygen\` writes it beside the private one, gwc-signing.pub)`);
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw new HarnessError('BAD_FLAG', `${from}: not a PEM public key (the Ed25519 public key \`gw-conformance keygen\` writes beside the private one)`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new HarnessError('BAD_FLAG', `${from}: an ${key.asymmetricKeyType} key; statements are signed with Ed25519`);
  return key;
}

/** DSSE allows standard and URL-safe base64; anything else is not base64 at all. */
function base64(text: unknown, what: string): Buffer {
  if (typeof text !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) return refuse(`${STATEMENT_FILE}: ${what} is not base64`);
  return Buffer.from(text, 'base64');
}

/** The envelope's statement once a signature verifies with `key`. */
function signedStatement(dir: string, key: KeyObject): Statement {
  const file = join(dir, STATEMENT_FILE);
  if (!existsSync(file)) return refuse(`${STATEMENT_FILE} is missing: the folder is not signed (certify signs it when given --signing-key or GWC_SIGNING_KEY)`);
  let envelope: Envelope;
  try {
    envelope = JSON.parse(readFileSync(file, 'utf8').split('\n').find((l) => l.trim()) ?? '') as Envelope;
  } catch {
    return refuse(`${STATEMENT_FILE} is not a DSSE envelope (one JSON line)`);
  }
  if (!envelope || typeof envelope !== 'object' || !Array.isArray(envelope.signatures)) return refuse(`${STATEMENT_FILE} is not a DSSE envelope (no signatures)`);
  const body = base64(envelope.payload, 'the payload');
  // The signature covers the payload type too: one the signer did not give fails below.
  const signed = pae(String(envelope.payloadType ?? ''), body);
  const ok = envelope.signatures.some((s) => {
    const sig = base64(s?.sig, 'a signature');
    try {
      return verifySignature(null, signed, key, sig);
    } catch {
      return false;
    }
  });
  if (!ok) return refuse(`${STATEMENT_FILE}: no signature verifies with the public key ${keyIdOf(key)} (the statement was changed, or signed by another key)`);
  if (envelope.payloadType !== PAYLOAD_TYPE) return refuse(`${STATEMENT_FILE}: payload type ${JSON.stringify(envelope.payloadType)}, expected ${PAYLOAD_TYPE}`);
  let statement: Statement;
  try {
    statement = JSON.parse(body.toString('utf8')) as Statement;
  } catch {
    return refuse(`${STATEMENT_FILE}: the signed payload is not JSON`);
  }
  if (statement?._type !== STATEMENT_TYPE || statement.predicateType !== PREDICATE_TYPE || !Array.isArray(statement.subject)) return refuse(`${STATEMENT_FILE}: not an in-toto statement of type ${PREDICATE_TYPE}`);
  return statement;
}

/** Every subject file is there and has its signed digest; the files verify compares are among them. */
function checkSubjects(dir: string, statement: Statement): void {
  const names = statement.subject.map((s) => s.name);
  for (const name of REQUIRED_SUBJECTS) if (!names.includes(name)) refuse(`the signed statement does not cover ${name}`);
  for (const s of statement.subject) {
    if (typeof s.name !== 'string' || isAbsolute(s.name) || /(^|[\\/])\.\.([\\/]|$)/.test(s.name)) refuse(`${STATEMENT_FILE}: subject ${JSON.stringify(s.name)} is not a file of the folder`);
    const file = join(dir, s.name);
    if (!existsSync(file)) refuse(`${s.name} is missing (it is a signed file of the folder)`);
    if (sha256(readFileSync(file)) !== s.digest?.sha256) refuse(`${s.name} does not match its signed digest`);
  }
}

const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));

/** The signed verdicts say what report.json and conformance-report.yaml hold. */
function checkPredicate(dir: string, statement: Statement): void {
  const p = statement.predicate;
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as RunReport;
  const signed = new Map(p.verdicts.map((v) => [v.check, v]));
  for (const r of report.results) {
    const v = signed.get(r.id);
    signed.delete(r.id);
    if (!isDeepStrictEqual(verdictOfResult(r), v)) refuse(`report.json does not match the signed statement: ${r.id} is ${show(verdictOfResult(r))} there, the statement signs ${show(v)}`);
  }
  for (const id of signed.keys()) refuse(`report.json does not match the signed statement: ${id} is signed but not in report.json`);
  const doc = YAML.parse(readFileSync(join(dir, CONFORMANCE_FILE), 'utf8')) as ConformanceReport;
  const profile = profileResult({ profile: p.profile.name, exitCode: p.exitCode, results: p.verdicts.map((v) => ({ id: v.check, outcome: v.status })) } as unknown as RunReport);
  const pairs: Array<[string, unknown, unknown]> = [
    ['profiles', doc.profiles, [profile]],
    ['seed', doc.seed, p.seed],
    ['capabilities', doc.capabilities ?? [], p.capabilities],
    ['harness', doc.harness, p.harness],
    ['catalog.sha256', doc.catalog?.sha256, p.catalog.sha256],
    ['implementation', doc.implementation, p.implementation],
    ['transcript.digest', doc.transcript?.digest, p.transcript.digest],
  ];
  for (const [at, have, want] of pairs) if (!isDeepStrictEqual(have, want)) refuse(`${CONFORMANCE_FILE} does not match the signed statement at ${at}: ${show(have)}, signed ${show(want)}`);
}

/** The checks in order; returns what verify prints when all hold. A failure throws a StatementRefusal. */
export function verifyStatement(dir: string, key: KeyObject): string {
  const statement = signedStatement(dir, key);
  checkSubjects(dir, statement);
  checkPredicate(dir, statement);
  return `verify: ${STATEMENT_FILE}: signature verified with key ${keyIdOf(key)}; ${statement.subject.length} signed files match their digests; the signed verdicts match ${CONFORMANCE_FILE} and report.json`;
}
