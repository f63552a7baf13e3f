// Reporters are a plain record of functions over one RunReport (design.md, style rule 7).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunReport } from '../report/types.js';
import { consoleSummary } from './console.js';
import { junitXml } from './junit.js';
import { htmlReport } from './html.js';

export type ReporterName = 'console' | 'junit' | 'json' | 'html';
export const REPORTERS: ReporterName[] = ['console', 'junit', 'json', 'html'];

/** Writes the report in each format; returns the files written. */
export function writeReports(report: RunReport, names: ReporterName[], outDir: string, print: (s: string) => void): string[] {
  const files: string[] = [];
  const write = (name: string, text: string) => {
    mkdirSync(outDir, { recursive: true });
    const f = join(outDir, name);
    writeFileSync(f, text);
    files.push(f);
  };
  if (names.includes('junit')) write('junit.xml', junitXml(report));
  if (names.includes('html')) write('report.html', htmlReport(report));
  if (names.includes('json')) write('report.json', `${JSON.stringify(report, null, 2)}\n`);
  if (names.includes('console')) print(consoleSummary(report, files));
  return files;
}
