// The run-level bound against a gateway whose answers defeat every check the same way: an
// answer that never ends (read to the client's bound, ANSWER_MAX, each time) or one that is not
// HTTP at all. Each check would read its bound or meet the garbage again, so a run lasted its
// number of checks times that. Once UNBOUNDED_AFTER different checks have met the same kind of
// answer, the runner starts no more checks: they are reported as not run, with that evidence
// (the kind and the checks that met it), and the run exits 1 (src/report/shared/policy.ts), as
// for a hung gateway (src/runner/hung.ts). The bound counts checks, not requests, and the same
// kind only: it trips after the same number of such checks whichever of them ran first, and it
// gives no check a verdict of its own (a check that met the answer keeps the verdict it reached;
// one not started is not run, never a pass), so no verdict depends on the order of the checks.
import type { CheckDef } from '../check/check.js';
import type { CheckResult } from '../report/shared/types.js';
import { notRunResult } from './not-run.js';
import { UNBOUNDED_NOT_RUN } from '../report/shared/policy.js';

/** How many different checks must meet the same kind of answer: one or two are findings of their own; three is the gateway's way of answering. */
export const UNBOUNDED_AFTER = 3;

/** The kind of answer a transport error code stands for, or null when it is none the bound counts (every parse error is one kind: random bytes give a different code each time). */
export function unboundedKind(code: string): string | null {
  if (code === 'ANSWER_TOO_LARGE') return 'never end (each read to the client\'s bound, 16 MiB)';
  if (code === 'STREAM_TOO_LONG') return 'are streams that never end (each read to the client\'s bound, 6 MiB, or a line of 1 MiB)';
  if (code.startsWith('HPE_') || code === 'HTTPParserError' || code === 'UND_ERR_HEADERS_OVERFLOW') return 'are not valid HTTP (the client could not parse them)';
  return null;
}

/** Counts, per kind of answer, the checks that met it. */
export class UnboundedBreaker {
  private met = new Map<string, Set<string>>();
  private trippedBy: { kind: string; checks: string[] } | null = null;
  constructor(private readonly after = UNBOUNDED_AFTER) {}

  /** A request of check `id` failed with transport error `code`. */
  note(id: string, code: string): void {
    const kind = unboundedKind(code);
    if (!kind || this.trippedBy) return;
    const checks = this.met.get(kind) ?? new Set<string>();
    checks.add(id);
    this.met.set(kind, checks);
    if (checks.size >= this.after) this.trippedBy = { kind, checks: [...checks].sort() };
  }

  get tripped(): { kind: string; checks: readonly string[] } | null {
    return this.trippedBy;
  }

  /** The result of a check not started because the gateway's answers defeat every check (only once tripped). */
  notRun(c: CheckDef): CheckResult {
    const t = this.trippedBy!;
    return notRunResult(c, `${UNBOUNDED_NOT_RUN} ${t.kind}: ${t.checks.length} checks met such an answer (${t.checks.join(', ')}); the run started no more checks, each of which would have met it again`, { unboundedAnswers: { kind: t.kind, metBy: [...t.checks] } });
  }
}
