// Output formats of `lint-config`: text, json (schema: src/lint/schemas/lint-report.schema.json),
// junit, SARIF 2.1.0 and GitHub workflow annotations. What a config file holds is shown inert
// (src/core/inert.ts): the text and annotation lines as on the console, JUnit as XML.
import { RULES, type FileResult, type Finding } from './rules.js';
import { terminalSafe, workflowData, workflowProperty, xmlAttrs, xmlText } from '../core/inert.js';
import { plural } from '../core/words.js';

export const FORMATS = ['text', 'json', 'junit', 'sarif', 'github'] as const;
export type Format = (typeof FORMATS)[number];
export const LINT_REPORT_VERSION = '1.0.0';

export interface Totals {
  files: number;
  errors: number;
  warnings: number;
}

export function totals(results: readonly FileResult[]): Totals {
  const all = results.flatMap((r) => r.findings);
  return { files: results.length, errors: all.filter((f) => f.severity === 'error').length, warnings: all.filter((f) => f.severity === 'warning').length };
}

export const exitCodeOf = (results: readonly FileResult[], strict: boolean): number => {
  const t = totals(results);
  return t.errors > 0 || (strict && t.warnings > 0) ? 1 : 0;
};

export function summaryLine(results: readonly FileResult[]): string {
  const t = totals(results);
  return `${plural(t.errors, 'error')}, ${plural(t.warnings, 'warning')} in ${plural(t.files, 'file')}`;
}

function text(results: readonly FileResult[]): string {
  const lines: string[] = [];
  for (const r of results) {
    if (r.findings.length === 0) lines.push(`${r.file}: no problems (dialect ${r.dialect})`);
    for (const f of r.findings) lines.push(`${f.file}:${f.line}:${f.column}: ${f.severity} ${f.rule} ${f.message}`, `    fix: ${f.hint}`);
  }
  lines.push(summaryLine(results));
  return terminalSafe(lines.join('\n'));
}

function json(results: readonly FileResult[], strict: boolean, version: string): string {
  return JSON.stringify(
    {
      schemaVersion: LINT_REPORT_VERSION,
      tool: { name: 'gw-conformance lint-config', version },
      strict,
      exitCode: exitCodeOf(results, strict),
      summary: totals(results),
      files: results.map((r) => ({ file: r.file, dialect: r.dialect, ...countOf(r.findings), findings: r.findings })),
    },
    null,
    2,
  );
}

const countOf = (fs: readonly Finding[]) => ({ errors: fs.filter((f) => f.severity === 'error').length, warnings: fs.filter((f) => f.severity === 'warning').length });

// --- JUnit: one suite per file, one testcase per rule.
function junit(results: readonly FileResult[], strict: boolean): string {
  const suites: string[] = [];
  let failures = 0;
  let tests = 0;
  for (const r of results) {
    const cases: string[] = [];
    let suiteFailures = 0;
    for (const rule of RULES) {
      const fs = r.findings.filter((f) => f.rule === rule.id);
      const detail = fs.map((f) => `${f.file}:${f.line}:${f.column}: ${f.severity} ${f.message} (fix: ${f.hint})`).join('\n');
      const failed = fs.some((f) => f.severity === 'error') || (strict && fs.length > 0);
      let body = '';
      if (failed) {
        suiteFailures++;
        body = `\n      <failure${xmlAttrs({ message: detail, type: fs.some((f) => f.severity === 'error') ? 'error' : 'warning' })}>${xmlText(detail)}</failure>\n    `;
      } else if (fs.length > 0) body = `\n      <system-out>${xmlText(detail)}</system-out>\n    `;
      cases.push(`    <testcase${xmlAttrs({ classname: r.file, name: `${rule.id}: ${rule.title}`, time: '0' })}>${body}</testcase>`);
    }
    tests += RULES.length;
    failures += suiteFailures;
    suites.push([`  <testsuite${xmlAttrs({ name: `lint-config ${r.file}`, tests: RULES.length, failures: suiteFailures, errors: 0 })}>`, ...cases, '  </testsuite>'].join('\n'));
  }
  return ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites${xmlAttrs({ name: 'lint-config', tests, failures, errors: 0 })}>`, ...suites, '</testsuites>', ''].join('\n');
}

// --- SARIF 2.1.0
function sarif(results: readonly FileResult[], version: string): string {
  const index = new Map(RULES.map((r, i) => [r.id, i]));
  return JSON.stringify(
    {
      $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
      version: '2.1.0',
      runs: [
        {
          tool: {
            driver: {
              name: 'gw-conformance lint-config',
              version,
              rules: RULES.map((r) => ({
                id: r.id,
                name: r.title.replace(/[^A-Za-z0-9]+/g, ' ').trim().replace(/ (\w)/g, (_, c: string) => c.toUpperCase()).replace(/^\w/, (c) => c.toUpperCase()),
                shortDescription: { text: r.title },
                fullDescription: { text: r.description },
                defaultConfiguration: { level: r.level === 'MUST' ? 'error' : 'warning' },
                properties: { level: r.level, ...(r.alias ? { alias: r.alias } : {}) },
              })),
            },
          },
          results: results.flatMap((r) =>
            r.findings.map((f) => ({
              ruleId: f.rule,
              ruleIndex: index.get(f.rule),
              level: f.severity,
              message: { text: `${f.message}. Fix: ${f.hint}` },
              locations: [{ physicalLocation: { artifactLocation: { uri: sarifUri(f.file) }, region: { startLine: f.line, startColumn: f.column } } }],
              properties: { keyPath: f.path },
            })),
          ),
        },
      ],
    },
    null,
    2,
  );
}

const sarifUri = (file: string) => (file === '<stdin>' ? 'stdin' : file.split('/').map(encodeURIComponent).join('/'));

// --- GitHub workflow commands: ::error file=...,line=...,col=...,title=...::message
// Escaped by src/core/inert.ts (workflowData, workflowProperty).
const escData = workflowData;
const escProp = workflowProperty;

function github(results: readonly FileResult[]): string {
  const lines = results.flatMap((r) =>
    r.findings.map((f) => `::${f.severity} file=${escProp(f.file)},line=${f.line},col=${f.column},title=${escProp(f.rule)}::${escData(`${f.message}. Fix: ${f.hint}`)}`),
  );
  lines.push(summaryLine(results));
  return lines.join('\n');
}

export function render(format: Format, results: readonly FileResult[], opts: { strict: boolean; version: string }): string {
  switch (format) {
    case 'text':
      return text(results);
    case 'json':
      return json(results, opts.strict, opts.version);
    case 'junit':
      return junit(results, opts.strict);
    case 'sarif':
      return sarif(results, opts.version);
    case 'github':
      return github(results);
  }
}
