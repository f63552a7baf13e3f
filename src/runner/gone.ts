// The run-level bound against a gateway that is gone: a process the harness launched that
// exited, or a target that refuses connections after it accepted them (the readiness gate
// proved it did). Without it every later check fails with "connection refused", and the check
// whose traffic killed it may pass. The moment is found twice over: a launched gateway's exit
// (the launcher tells it), and, after any check whose connection failed, a connection made to
// the target (a refused one: gone). The check during which it went is judged by that (its
// result names the exit or the refusal and the time, its own verdict kept as evidence); the
// checks that started after are not run ("not run: the gateway is gone since <check> (<how>)"),
// and so are the ones running beside it whose connections failed after it went; the run exits
// 1 (src/report/shared/policy.ts), and the console says the run is incomplete.
import net from 'node:net';
import type { CheckDef } from '../check/check.js';
import type { CheckResult } from '../report/shared/types.js';
import { notRunResult } from './not-run.js';
import { failedOutcome } from '../core/outcome.js';
import { GONE_NOT_RUN } from '../report/shared/policy.js';

/** How the gateway went, when, and during which checks (none: between checks). */
export interface Gone {
  how: string;
  at: Date;
  during: string[];
}

/** Whether a TCP connection to `target`'s host and port is accepted (false: refused or failed). */
export function accepts(target: URL): Promise<boolean> {
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  return new Promise((resolve) => {
    const s = net.connect({ host: target.hostname.replace(/^\[|\]$/g, ''), port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/**
 * How long, after a launched gateway's port refused a connection, the runner waits for the
 * process's exit to be reported (to name its code): its listening socket closes as the process
 * ends, and the exit is reaped within milliseconds; 2 s is that with a wide margin for a loaded
 * machine. Past it the refusal alone is reported.
 */
const EXIT_REPORT_MS = 2000;

/** Tracks the checks running, the connections that failed, and the moment the gateway went. */
export class GoneBreaker {
  private readonly exited: Promise<string>;
  private readonly unsubscribe?: () => void;
  constructor(
    private readonly target: URL,
    private readonly launcher?: { onExit?(listener: (how: string) => void): () => void },
  ) {
    let seen: (how: string) => void = () => {};
    this.exited = new Promise<string>((resolve) => (seen = resolve));
    this.unsubscribe = launcher?.onExit?.((how) => {
      seen(how);
      this.went(how);
    });
  }

  /** The run ended: the launcher's exit no longer concerns it. */
  stop(): void {
    this.unsubscribe?.();
  }

  /** After check `id` ended: when a connection of it failed, does the target still accept connections? A refusal: gone, during it. */
  async probeAfter(id: string): Promise<void> {
    if (this.gone || !this.failedIn.has(id) || (await accepts(this.target))) return;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<null>((r) => (timer = setTimeout(() => r(null), EXIT_REPORT_MS)));
    const how = this.launcher?.onExit ? await Promise.race([this.exited, bound]) : null;
    clearTimeout(timer);
    this.went(how ? `${how}; its port refused connections` : 'the target refused connections (it had accepted them before)', id);
  }

  private running = new Map<string, number>();
  /** Checks whose connection failed while they ran (the runner probes the target after them). */
  private failedIn = new Set<string>();
  private gone: Gone | null = null;
  /** Checks that ended before the gateway went (the last one is named when it went between checks). */
  private lastEnded: string | null = null;

  started(id: string): void {
    this.running.set(id, Date.now());
  }

  /** A request of check `id` ended with a transport error (refused, reset, closed). */
  connectionFailed(id: string): void {
    this.failedIn.add(id);
  }

  /** The gateway went now, as `how` says; `by`: the check that found it (a refusal), else every check running. */
  went(how: string, by?: string): void {
    if (this.gone) return;
    this.gone = { how, at: new Date(), during: by ? [by] : [...this.running.keys()] };
  }

  get tripped(): Gone | null {
    return this.gone;
  }

  /** A check ended: its result as the run reports it (changed only once the gateway went). */
  ended(r: CheckResult): CheckResult {
    const failed = this.failedIn.delete(r.id);
    this.running.delete(r.id);
    const g = this.gone;
    if (!g) {
      this.lastEnded = r.id;
      return r;
    }
    if (g.during.includes(r.id)) return this.wentDuring(r, g);
    // Running beside it: a verdict it reached is its own; a failed connection after the gateway went is no verdict.
    if (failed && r.outcome !== 'skip') return { ...this.notRunOf(r), durationMs: r.durationMs, evidence: { ...this.notRunOf(r).evidence, verdictAsMeasured: `${r.outcome}: ${r.message}` } };
    return r;
  }

  private wentDuring(r: CheckResult, g: Gone): CheckResult {
    const others = g.during.filter((id) => id !== r.id);
    const level = r.level;
    return {
      ...r,
      outcome: failedOutcome(level),
      message: `the gateway is gone: ${g.how} at ${g.at.toISOString()}, during this check${others.length ? ` (also running: ${others.join(', ')})` : ''}; the checks after it were not run`,
      evidence: { ...r.evidence, gone: { ...g, at: g.at.toISOString() }, verdictAsMeasured: `${r.outcome}: ${r.message}` },
    };
  }

  private since(): string {
    const g = this.gone!;
    return g.during.length ? g.during.join(', ') : `after ${this.lastEnded ?? 'the readiness gate'}`;
  }

  private notRunOf(c: Pick<CheckResult, 'id' | 'title' | 'area' | 'requirements' | 'level'>): CheckResult {
    const g = this.gone!;
    return notRunResult(c, `${GONE_NOT_RUN} since ${this.since()} (${g.how} at ${g.at.toISOString()})`, { goneSince: { ...g, at: g.at.toISOString() } });
  }

  /** The result of a check not started because the gateway is gone (only once tripped). */
  notRun(c: CheckDef): CheckResult {
    return this.notRunOf(c);
  }
}
