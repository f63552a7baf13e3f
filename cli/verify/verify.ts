// verify: a certify folder re-run with its recorded seed and settings (its signed statement
// checked first with --public-key), the verdicts and the transcript digest compared with those
// recorded. The re-run is the caller's (cli/verify/command.ts hands it the profile's suite).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig, SERVICE_ENV } from '../../src/config/config.js';
import { HarnessError } from '../../src/core/errors.js';
import { COMMANDS } from '../../src/config/commands.js';
import { firstDifference, transcriptDigest, transcriptLines, type Transcript } from '../../src/report/certify/transcript.js';
import { compareVerdicts, CONFORMANCE_FILE, readCertifyDir } from '../../src/report/certify/certify.js';
import { conformanceMismatch } from '../../src/report/certify/certify-match.js';
import { readReport } from '../../src/report/run/merge.js';
import { STATEMENT_FILE } from '../../src/report/certify/statement.js';
import { publicKeyOf, StatementRefusal, verifyStatement } from '../../src/report/certify/statement-verify.js';
import { plural } from '../../src/core/words.js';
import { keyText, type Io, type SuiteRunner } from '../certify/certify.js';
import { verifyTarget } from '../../src/config/recorded-launch.js';

/** With --public-key: the signed statement checked before anything runs; the line a refusal prints, or null. */
function checkSigned(dir: string, publicKey: string | undefined, io: Io): string | null {
  if (publicKey === undefined) {
    if (existsSync(join(dir, STATEMENT_FILE))) io.out(`verify: ${STATEMENT_FILE} not checked (give --public-key to check its signature and digests)`);
    return null;
  }
  const { pem, from } = keyText(publicKey, '--public-key');
  const key = publicKeyOf(pem, from);
  try {
    io.out(verifyStatement(dir, key));
    return null;
  } catch (e) {
    if (e instanceof StatementRefusal) return e.message;
    throw e;
  }
}

export interface VerifyFlags {
  /** The Ed25519 public key (PEM file) that must have signed statement.intoto.jsonl. */
  publicKey?: string;
  target?: string;
  upstreamListen?: string;
  token?: string;
  /** Start the gateway again with this command (and environment) instead of --target. */
  gatewayCmd?: string;
  gatewayEnv?: string[];
}

export async function verify(dir: string, flags: VerifyFlags, io: Io, run: SuiteRunner): Promise<number> {
  // A folder that is not what was signed is not reproduced: one line naming the file, exit 1.
  const refused = checkSigned(dir, flags.publicKey, io);
  if (refused) {
    io.err(`gw-conformance: ${refused}`);
    return 1;
  }
  const { doc, transcript } = readCertifyDir(dir);
  const recorded = readReport(dir);
  // The conformance report is what a reader trusts: it must say what the run's files hold.
  const mismatch = conformanceMismatch(doc, recorded, transcript);
  if (mismatch) throw new HarnessError('BAD_REPORT', `verify: ${join(dir, CONFORMANCE_FILE)} does not match the run it reports: ${mismatch}`);
  // The recorded settings, as a gwc.yaml; only the credential comes from the environment.
  const env: NodeJS.ProcessEnv = {};
  for (const k of [...(COMMANDS.verify.env ?? []), ...Object.values(SERVICE_ENV)]) if (io.env[k] !== undefined) env[k] = io.env[k];
  // A recorded (or given) gateway command starts the gateway again: its address is new each time.
  const aim = verifyTarget(doc.settings, doc.runReport.target, flags);
  const cfg = resolveConfig({ target: aim.target, upstreamListen: flags.upstreamListen, token: flags.token, reporter: ['json'], gatewayCmd: flags.gatewayCmd, gatewayEnv: flags.gatewayEnv }, aim.settings, env);
  io.out(`verify: re-running ${plural(recorded.results.length, 'check')} of ${doc.implementation.name} ${doc.implementation.version} against ${cfg.target ?? `the gateway started by --gateway-cmd`} (seed ${cfg.seed}, profile ${cfg.profile})`);
  const t: Transcript = new Map();
  const now = await run(cfg, { transcript: t });
  const cmp = compareVerdicts(recorded, now);
  for (const c of cmp) io.out(`${c.reproduced ? 'REPRODUCED' : 'DIFFERS   '} ${c.id.padEnd(40)} ${c.reproduced ? c.recorded : `recorded ${c.recorded ?? '(absent)'}, now ${c.now ?? '(absent)'}${c.message ? `: ${c.message}` : ''}`}`);
  const digest = transcriptDigest(t);
  const same = digest === doc.transcript.digest;
  const diff = same ? null : firstDifference(transcript, transcriptLines(t));
  const differing = cmp.filter((c) => !c.reproduced).length;
  io.out(`verdicts: ${cmp.length - differing} of ${cmp.length} reproduced${differing ? `, ${differing} differ` : ''}`);
  io.out(same ? `transcript digest matches: ${digest}` : `transcript digest differs: recorded ${doc.transcript.digest}, now ${digest}; first difference: ${diff ?? 'none by exchange (the recorded transcript file does not match its digest)'}`);
  if (now.results.some((r) => r.outcome === 'error')) {
    io.err('gw-conformance: verify: the harness broke on a check in the re-run; its verdicts cannot be compared');
    return 2;
  }
  io.out(differing === 0 && same ? 'Result: reproduced.' : 'Result: NOT reproduced.');
  return differing === 0 && same ? 0 : 1;
}
