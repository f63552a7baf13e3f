// Reading forwarded headers off a recorded request, and judging the headers of successful answers (HDR-OK-1).
import { fail, pass, type Verdict } from '../../src/check/check.js';
import type { GwResponse } from '../../src/client/gateway.js';
import { headerValues, type RecordedRequest } from '../../src/upstream/record.js';
import { clientEvidence } from './evidence.js';

/** The comma-separated values of all instances of a list header, in order. */
export function listValues(r: RecordedRequest, name: string): string[] {
  return headerValues(r, name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

/** What of `sent` did not reach the client as sent: missing, changed or doubled headers. */
export function lostHeaders(sent: ReadonlyArray<readonly [string, string]>, got: Array<[string, string]>): string[] {
  const problems: string[] = [];
  for (const [name, value] of sent) {
    const values = got.filter(([k]) => k.toLowerCase() === name).map(([, v]) => v);
    if (!values.length) problems.push(`${name} missing`);
    else if (values.length > 1 || values[0] !== value) problems.push(`${name}: ${values.join(', ')} (sent ${value})`);
  }
  return problems;
}

/** One successful answer of HDR-OK-1: the headers the upstream sent that must arrive, and what the client got. */
export interface SuccessAnswer {
  what: string;
  sent: ReadonlyArray<readonly [string, string]>;
  status: number;
  got: Array<[string, string]>;
}

/**
 * HDR-OK-1's verdict on `answers` (each a 200 the upstream sent), `named` the headers in words
 * ("request-id and every rate-limit header"): a status other than 200 fails, then a header lost,
 * changed or doubled on any answer; `json` is the JSON answer the evidence shows whole.
 */
export function successHeadersVerdict(answers: SuccessAnswer[], json: GwResponse, named: string): Verdict {
  const evidence = { answers: answers.map((a) => ({ what: a.what, status: a.status, headers: a.got })), client: clientEvidence(json, 600) };
  const notOk = answers.find((a) => a.status !== 200);
  if (notOk) return fail(`the ${notOk.what} answer reached the client with status ${notOk.status}, not 200`, { expected: '200', actual: String(notOk.status), evidence });
  const lost = answers.map((a) => ({ what: a.what, problems: lostHeaders(a.sent, a.got) })).filter((a) => a.problems.length);
  if (lost.length)
    return fail(`the ${lost[0].what} answer lost headers the upstream sent on a 200: ${lost[0].problems.slice(0, 3).join('; ')}`, {
      expected: `${named}, values unchanged, on every successful answer`,
      actual: lost.map((l) => `${l.what}: ${l.problems.join('; ')}`).join('\n'),
      evidence,
    });
  return pass(`${named} arrived unchanged on ${answers.map((a) => a.what).join(', ')}`);
}
