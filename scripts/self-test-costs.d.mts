// Types of scripts/self-test-costs.mjs for the test that imports it; the report is the one the
// self-tests' reporter writes (test/helpers/self-costs.ts).
import type { SelfTestsReport } from '../test/helpers/self-costs.js';

export type { SelfTestsReport };
export const SECTION_START: string;
export const SECTION_END: string;
export const TOP: number;
export function selfTestSection(report: SelfTestsReport, top?: number): string;
export function withSelfTestSection(doc: string, section: string): string;
export function parseReport(text: string): SelfTestsReport;
