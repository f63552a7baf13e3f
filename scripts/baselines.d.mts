// Types of scripts/baselines.mjs for the tests that import it (test/helpers/baselines.ts).
export type Outcomes = Record<string, string>;
export interface Baseline {
  note?: string;
  /** The protocols the run was observed with (its `--protocols`). */
  protocols: string[];
  exitCode: number;
  outcomes: Outcomes;
}
export interface DetectionFile {
  faults: Record<string, Outcomes>;
  [key: string]: unknown;
}
export const UPDATE_ENV: string;
export const UPDATE_COMMAND: string;
export function updating(env: Record<string, string | undefined>): boolean;
export function outcomeChanges(before: Outcomes, after: Outcomes): string[];
export interface ObservedRun {
  protocols?: string[];
  exitCode: number;
  outcomes: Outcomes;
}
export function comparableOutcomes(results: Array<{ id: string; outcome: string }>, undeclared: (id: string) => boolean): Outcomes;
export function baselineChanges(baseline: Baseline, observed: ObservedRun): string[];
export function withObserved<B extends Baseline>(baseline: B, observed: ObservedRun): B;
export function withRow<F extends DetectionFile>(file: F, fault: string, row: Outcomes): F;
export function jsonText(value: unknown): string;
export function rewrite(file: string, label: string, changes: string[], next: unknown): string[];
export function readJson(file: string): unknown;
