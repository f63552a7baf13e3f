// The names of the report formats and of the JUnit dialects: the reporters define them, and the
// command-line options (src/config/options.ts) offer them.
export const REPORTER_NAMES = ['console', 'junit', 'json', 'html'] as const;
export type ReporterName = (typeof REPORTER_NAMES)[number];

/** `jenkins` validates against junit-10.xsd; `surefire` adds Maven Surefire's rerun elements. */
export const JUNIT_FORMATS = ['jenkins', 'surefire'] as const;
export type JunitFormat = (typeof JUNIT_FORMATS)[number];
