// The run's progress as the runner and the readiness gate report it; the console that shows it
// (the status line, the "still running" lines) is the CLI's: cli/shared/progress.ts.

/** The run's progress, as the runner and the readiness gate report it. */
export interface RunProgress {
  /** The checks about to run (their number is the total). */
  planned(count: number): void;
  started(check: { id: string; title: string }): void;
  finished(id: string): void;
  /** The readiness gate got an answer (gateway text: shown inert). */
  readiness(protocol: string, answer: { status: number | null; contentType: string | null; error: string | null }): void;
  /** The readiness gate is over. */
  ready(): void;
}
