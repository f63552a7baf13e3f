// What `gw-conformance matrix <dir...>` does (registered by ./command.ts, loaded when it
// runs): many runs on one page. Reads each run's report.json (a folder, or the file itself), names
// its gateway (--label DIR=NAME@VERSION, else the report's own gateway, else a certify folder's
// implementation, else the folder's name), and writes the matrix as HTML, JSON or Markdown in --out.
// The model and its outputs are src/report/matrix*.ts; bad input is one line and exit 2.
import { existsSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { HarnessError } from '../../src/core/errors.js';
import { VERSION } from '../../src/core/paths.js';
import { CONFORMANCE_FILE, readCertifyDir } from '../../src/report/certify/certify.js';
import { readReport } from '../../src/report/run/merge.js';
import { buildMatrix, inputOfReport, type Matrix, type RunInput } from '../../src/report/across-runs/matrix.js';
import { matrixHtml } from '../../src/report/across-runs/matrix-html.js';
import { matrixMarkdown } from '../../src/report/across-runs/matrix-markdown.js';
import { assertWritableDir } from '../shared/out-dir.js';
import type { Io } from '../shared/context.js';
import { plural } from '../../src/core/words.js';

export type MatrixFormat = 'html' | 'json' | 'markdown';
const FILE: Record<MatrixFormat, string> = { html: 'matrix.html', json: 'matrix.json', markdown: 'matrix.md' };

/** `DIR=NAME@VERSION` (the version may be left out: `DIR=NAME`). */
export function parseLabel(text: string): { dir: string; name: string; version: string | null } {
  const eq = text.indexOf('=');
  const [dir, value] = eq < 0 ? ['', ''] : [text.slice(0, eq), text.slice(eq + 1)];
  const at = value.lastIndexOf('@');
  const [name, version] = at > 0 ? [value.slice(0, at), value.slice(at + 1)] : [value, ''];
  if (!dir.trim() || !name.trim() || (at > 0 && !version.trim())) throw new HarnessError('BAD_FLAG', `--label: expected DIR=NAME@VERSION (or DIR=NAME), got ${JSON.stringify(text)}`);
  return { dir: dir.trim(), name: name.trim(), version: at > 0 ? version.trim() : null };
}

/** The runs of the given folders or report.json files, each named; a label naming none of them is refused. */
export function matrixInputs(where: readonly string[], labels: readonly string[], outDir: string): RunInput[] {
  const parsed = labels.map(parseLabel);
  const folders = where.map((w) => (w.endsWith('.json') ? dirname(w) : w));
  for (const l of parsed)
    if (!where.some((w, i) => resolve(w) === resolve(l.dir) || resolve(folders[i]) === resolve(l.dir)))
      throw new HarnessError('BAD_FLAG', `--label ${l.dir}=...: ${l.dir} is none of the reports given (${where.join(', ')})`);
  return where.map((w, i) => {
    const report = readReport(w, { older: true });
    const label = parsed.find((l) => resolve(l.dir) === resolve(w) || resolve(l.dir) === resolve(folders[i]));
    const html = join(folders[i], 'report.html');
    const doc = existsSync(join(folders[i], CONFORMANCE_FILE)) ? readCertifyDir(folders[i]).doc : undefined;
    return inputOfReport(report, {
      label: label ? { name: label.name, version: label.version } : undefined,
      certified: doc ? { gateway: { name: doc.implementation.name, version: doc.implementation.version }, catalog: doc.catalog.version.replace(/ \(shipped with the harness\)$/, '') } : undefined,
      folder: basename(resolve(folders[i])),
      source: w,
      evidence: existsSync(html) ? relative(resolve(outDir), resolve(html)) : null,
    });
  });
}

export function renderMatrix(m: Matrix, format: MatrixFormat): string {
  return format === 'json' ? `${JSON.stringify(m, null, 2)}\n` : format === 'markdown' ? matrixMarkdown(m) : matrixHtml(m);
}

export function matrixCommand(where: string[], o: { out: string; format: MatrixFormat; label: string[] }, io: Io): number {
  assertWritableDir(o.out);
  const m = buildMatrix(matrixInputs(where, o.label, o.out), { name: 'gw-conformance', version: VERSION });
  const file = join(o.out, FILE[o.format]);
  writeFileSync(file, renderMatrix(m, o.format));
  io.out(`matrix: ${plural(m.runs.length, 'run')} × ${plural(m.checks.length, 'check')}${m.capabilities.length ? `, ${plural(m.capabilities.length, 'capability cell')}` : ''}: ${file}`);
  return 0;
}
