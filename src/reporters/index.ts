// Reporters are a plain record of functions over one RunReport, so a new format is one entry and
// none of them can change what another shows: each renders the report to a file of its own, or
// prints it (and the github reporter also appends a job summary to the file GitHub names).
import { appendFileSync, closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { RunReport } from '../report/shared/types.js';
import type { JunitFormat, ReporterName } from './names.js';
import { consoleSummary } from './console.js';
import { annotations, jobSummary } from './github.js';
import { junitXml } from './junit.js';
import { htmlParts, htmlReport } from './html/page.js';

export type { ReporterName };

/**
 * A reporter writes one file (its name and text; `parts`, when given, is the same text in pieces
 * written as they come, so the whole is never held), or prints after the files are written (and
 * may append a job summary).
 */
export type Reporter =
  | { file: string; render(report: RunReport, opts?: ReporterOptions): string; parts?(report: RunReport, opts?: ReporterOptions): Iterable<string> }
  | { print(report: RunReport, files: string[]): string; summary?(report: RunReport, files: string[]): string };

/** Settings a reporter may take (--junit-format), and the job summary file (GITHUB_STEP_SUMMARY). */
export interface ReporterOptions {
  junitFormat?: JunitFormat;
  stepSummary?: string;
}

export const REPORTERS: Record<ReporterName, Reporter> = {
  junit: { file: 'junit.xml', render: (r, o) => junitXml(r, o?.junitFormat) },
  json: { file: 'report.json', render: (r) => `${JSON.stringify(r, null, 2)}\n` },
  html: { file: 'report.html', render: (r) => htmlReport(r), parts: (r) => htmlParts(r) },
  console: { print: consoleSummary },
  github: { print: annotations, summary: jobSummary },
};

/** Writes the report in each format; returns the files written (the job summary is not one of them). */
export function writeReports(report: RunReport, names: ReporterName[], outDir: string, print: (s: string) => void, opts: ReporterOptions = {}): string[] {
  const files: string[] = [];
  for (const name of names) {
    const r = REPORTERS[name];
    if (!('file' in r)) continue;
    mkdirSync(outDir, { recursive: true });
    const f = join(outDir, r.file);
    // Beside it first, then renamed: a renderer that fails half way leaves no half a report.
    const part = `${f}.part`;
    const fd = openSync(part, 'w');
    try {
      for (const piece of r.parts ? r.parts(report, opts) : [r.render(report, opts)]) writeSync(fd, piece);
    } catch (e) {
      closeSync(fd);
      rmSync(part, { force: true });
      throw e;
    }
    closeSync(fd);
    renameSync(part, f);
    files.push(f);
  }
  for (const name of names) {
    const r = REPORTERS[name];
    if (!('print' in r)) continue;
    const text = r.print(report, files);
    if (text) print(text);
    if (r.summary && opts.stepSummary) appendFileSync(opts.stepSummary, r.summary(report, files));
  }
  return files;
}
