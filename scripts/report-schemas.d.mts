// The types of scripts/report-schemas.mjs, for the test that holds the run report schema's protocol list.
export const REPORT_SCHEMA: string;
export const REGENERATE: string;
export function withProtocols(text: string, protocols: readonly string[]): string;
