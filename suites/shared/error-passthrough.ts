// The body of the checks that an upstream's errors reach the client as they were sent, on any
// protocol: each scripted error in turn, its status and its JSON body compared with what the
// client got; the first that differs is the finding.
import { fail, type Verdict } from '../../src/check/check.js';
import { describeDiff } from '../../src/core/json-diff.js';
import { tryParse } from '../../src/core/json.js';
import { exchangeEvidence, excerpt } from './evidence.js';
import { responseDiffs, type Exchange } from './exchange.js';

/** One error the upstream answers with: its status and how messages name it (`400 INVALID_ARGUMENT`). */
export interface ErrorCase {
  status: number;
  name: string;
}

export interface ErrorPassthrough<C extends ErrorCase> {
  cases: C[];
  /** Sends a request the upstream answers with the case's error. */
  send(c: C): Promise<Exchange>;
  /** What the failure of a changed body calls it: `${name} error body` unless the case's name already says which body. */
  changed?(c: C): string;
}

/** The first case whose status or JSON body did not reach the client as the upstream sent it; null when every one did. */
export async function errorsPassedThrough<C extends ErrorCase>(p: ErrorPassthrough<C>): Promise<Verdict | null> {
  for (const c of p.cases) {
    const x = await p.send(c);
    const ev = exchangeEvidence(x);
    const got = tryParse(x.res.text());
    if (x.res.status !== c.status || !got.ok) {
      const html = /<html|<!doctype/i.test(x.res.text());
      return fail(`the upstream's ${c.name} reached the client as ${x.res.status}${!got.ok ? (html ? ' with an HTML page' : ' with a body that is not JSON') : ''}`, {
        expected: `${c.status} with the upstream's JSON error`,
        actual: `${x.res.status} ${x.res.header('content-type') ?? ''}: ${excerpt(x.res.text(), 200)}`,
        evidence: ev,
      });
    }
    const { diffs } = responseDiffs(x);
    const what = p.changed ? p.changed(c) : `${c.name} error body`;
    if (diffs.length) return fail(`the upstream's ${what} changed on the way: ${describeDiff(diffs[0])}`, { expected: "the upstream's error body", actual: diffs.map(describeDiff).join('\n'), evidence: { diffs, ...ev } });
  }
  return null;
}
