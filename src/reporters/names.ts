// The names of the report formats and of the JUnit dialects: the reporters define them, and the
// command-line options (src/config/options.ts) offer them. `github` (annotations and a job
// summary) is not among the defaults: it is added when the run is in GitHub Actions.
export const DEFAULT_REPORTERS = ['console', 'junit', 'json', 'html'] as const;
export const REPORTER_NAMES = [...DEFAULT_REPORTERS, 'github'] as const;
export type ReporterName = (typeof REPORTER_NAMES)[number];

/** The reporters of a run: those chosen, and `github` when running in GitHub Actions (as vitest does). */
export function reportersFor(chosen: readonly ReporterName[], env: NodeJS.ProcessEnv): ReporterName[] {
  return [...new Set<ReporterName>([...chosen, ...(env.GITHUB_ACTIONS === 'true' ? (['github'] as const) : [])])];
}

/** `jenkins` validates against junit-10.xsd; `surefire` adds Maven Surefire's rerun elements. */
export const JUNIT_FORMATS = ['jenkins', 'surefire'] as const;
export type JunitFormat = (typeof JUNIT_FORMATS)[number];
