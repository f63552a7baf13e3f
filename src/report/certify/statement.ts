// The signed statement of a certify folder: an in-toto Statement v1 whose subjects are the
// folder's report files (each with its SHA-256) and whose predicate holds what a reader trusts
// (the verdicts, the capability matrix, the harness and catalog, the seed and the settings),
// wrapped in a DSSE envelope signed with Ed25519 and written as one JSON line to
// statement.intoto.jsonl. Ed25519 and SHA-256 are node:crypto's; the pre-authentication encoding
// (PAE) is the DSSE protocol's, held to the specification's test vectors (test/unit/report/statement.test.ts).
import { createHash, createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { HarnessError } from '../../core/errors.js';
import { scrubDeep } from '../../core/mask.js';
import type { CapabilityCell } from '../../core/capabilities.js';
import { profileResult, type ConformanceReport, type Implementation } from './certify.js';
import type { CheckResult, RunReport } from '../shared/types.js';

export const STATEMENT_FILE = 'statement.intoto.jsonl';
export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
/** The predicate of a gw-conformance statement: what `ConformancePredicate` holds (docs/reports.md). */
export const PREDICATE_TYPE = 'https://gw-conformance.dev/conformance/v1';
export const PAYLOAD_TYPE = 'application/vnd.in-toto+json';

/** One check's verdict as signed: its id, the requirements it proves, its level and outcome. */
export interface SignedVerdict {
  check: string;
  requirements: string[];
  level: CheckResult['level'];
  status: CheckResult['outcome'];
  /** A waived check: the outcome it had before the waiver. */
  waivedOutcome?: CheckResult['outcome'];
}

export interface ConformancePredicate {
  implementation: Implementation;
  harness: ConformanceReport['harness'];
  catalog: { version: string; sha256: string; requirements: number };
  profile: { name: string; result: string; statistics: Record<string, number> };
  exitCode: number;
  verdicts: SignedVerdict[];
  capabilities: CapabilityCell[];
  seed: number;
  settings: Record<string, unknown>;
  transcript: { digest: string; exchanges: number };
}

export interface Subject {
  name: string;
  digest: { sha256: string };
}

export interface Statement {
  _type: typeof STATEMENT_TYPE;
  subject: Subject[];
  predicateType: typeof PREDICATE_TYPE;
  predicate: ConformancePredicate;
}

export interface Envelope {
  payloadType: string;
  /** The statement's JSON, base64. */
  payload: string;
  signatures: Array<{ keyid?: string; sig: string }>;
}

/** DSSE's pre-authentication encoding: "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, lengths in bytes. */
export function pae(payloadType: string, body: Buffer): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `, 'ascii'), type, Buffer.from(` ${body.length} `, 'ascii'), body]);
}

export const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** The key's id: SHA-256 of its public key (SubjectPublicKeyInfo, DER), a hint that names the key, never a secret. */
export const keyIdOf = (key: KeyObject) => sha256((key.type === 'public' ? key : createPublicKey(key)).export({ type: 'spki', format: 'der' }));

/** An Ed25519 private key from PEM (PKCS#8); anything else is one line naming where it came from (exit 2). */
export function signingKeyOf(pem: string, from: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new HarnessError('BAD_FLAG', `${from}: not a PEM private key (an Ed25519 key in PKCS#8, as \`gw-conformance keygen\` writes)`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new HarnessError('BAD_FLAG', `${from}: an ${key.asymmetricKeyType} key; statements are signed with Ed25519 (\`gw-conformance keygen\` writes one)`);
  return key;
}

/** What the statement signs of a finished certify run; the settings pass the masker (no credential). */
export function predicateOf(doc: ConformanceReport, report: RunReport, secrets: string[]): ConformancePredicate {
  const p = profileResult(report);
  return {
    implementation: doc.implementation,
    harness: doc.harness,
    catalog: { version: doc.catalog.version, sha256: doc.catalog.sha256, requirements: doc.catalog.requirements },
    profile: { name: p.name, result: p.result, statistics: p.statistics },
    exitCode: report.exitCode,
    verdicts: report.results.map(verdictOfResult),
    capabilities: doc.capabilities ?? [],
    seed: doc.seed,
    settings: scrubDeep(doc.settings, secrets),
    transcript: { digest: doc.transcript.digest, exchanges: doc.transcript.exchanges },
  };
}

export function verdictOfResult(r: CheckResult): SignedVerdict {
  return { check: r.id, requirements: r.requirements, level: r.level, status: r.outcome, ...(r.waiver ? { waivedOutcome: r.waiver.waivedOutcome } : {}) };
}

/** The subjects: each file by its name in the folder, with the SHA-256 of its bytes, sorted by name. */
export function subjectsOf(files: string[]): Subject[] {
  return files.map((f) => ({ name: basename(f), digest: { sha256: sha256(readFileSync(f)) } })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The statement in its DSSE envelope, signed. */
export function signStatement(statement: Statement, key: KeyObject): Envelope {
  const body = Buffer.from(JSON.stringify(statement), 'utf8');
  const sig = sign(null, pae(PAYLOAD_TYPE, body), key).toString('base64');
  return { payloadType: PAYLOAD_TYPE, payload: body.toString('base64'), signatures: [{ keyid: keyIdOf(key), sig }] };
}

/** Writes statement.intoto.jsonl (the envelope, one line) over `files`, the report files of the folder; returns its path and the key's id. */
export function writeStatement(dir: string, files: string[], predicate: ConformancePredicate, key: KeyObject): { file: string; keyId: string; subjects: number } {
  const subject = subjectsOf(files.filter((f) => basename(f) !== STATEMENT_FILE));
  const envelope = signStatement({ _type: STATEMENT_TYPE, subject, predicateType: PREDICATE_TYPE, predicate }, key);
  const file = join(dir, STATEMENT_FILE);
  writeFileSync(file, `${JSON.stringify(envelope)}\n`);
  return { file, keyId: envelope.signatures[0].keyid!, subjects: subject.length };
}
