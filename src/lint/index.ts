// `gw-conformance lint-config FILE...`: reads the files, lints each, renders one report.
// Returns the exit code (0 clean, 1 errors, or warnings under --strict); a file that cannot be
// read or is not YAML is a HarnessError (exit 2, one line, with the YAML error's line).
import { readFileSync, writeFileSync } from 'node:fs';
import { text as readAll } from 'node:stream/consumers';
import { HarnessError } from '../core/errors.js';
import { VERSION } from '../core/paths.js';
import { exitCodeOf, FORMATS, render, summaryLine, type Format } from './format.js';
import { lintText } from './lint.js';
import { DIALECTS, RULES as RULE_LIST, type Dialect, type FileResult } from './rules.js';
import { YamlSyntaxError } from './source.js';

export { lintText, detectDialect } from './lint.js';
export { RULES } from './rules.js';
export type { Finding, FileResult, Dialect } from './rules.js';
export { FORMATS, render } from './format.js';

export interface LintConfigOptions {
  dialect?: string;
  format?: string;
  out?: string;
  strict?: boolean;
}

export interface LintIo {
  out: (s: string) => void;
  /** Standard input, read once when a file is `-`. */
  stdin?: () => Promise<string>;
}

export const STDIN_NAME = '<stdin>';

/** The catalog requirements lint-config checks (for `list`'s coverage): one entry per CFG-* rule. */
export const LINT_COVERAGE: Array<{ id: string; requirements: string[] }> = RULE_LIST.map((r) => ({ id: `lint-config:${r.id}`, requirements: [r.id] }));

/** Refuses bytes that are not UTF-8 (TypeError) instead of reading them as replacement characters. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export async function lintConfig(files: readonly string[], opts: LintConfigOptions, io: LintIo): Promise<number> {
  if (files.length === 0) throw new HarnessError('BAD_FLAG', 'lint-config: name at least one file (or - for standard input)');
  if (opts.dialect !== undefined && !DIALECTS.includes(opts.dialect as Dialect)) throw new HarnessError('BAD_FLAG', `--dialect: expected ${DIALECTS.join(' or ')}, got "${opts.dialect}"`);
  const format = (opts.format ?? 'text') as Format;
  if (!FORMATS.includes(format)) throw new HarnessError('BAD_FLAG', `--format: expected one of ${FORMATS.join(', ')}, got "${opts.format}"`);
  if (files.filter((f) => f === '-').length > 1) throw new HarnessError('BAD_FLAG', 'lint-config: standard input (-) can be named once');

  // Read and parse everything first: one unreadable file stops the run before any report.
  const results: FileResult[] = [];
  for (const file of files) {
    const name = file === '-' ? STDIN_NAME : file;
    let content: string;
    try {
      content = file === '-' ? await (io.stdin ?? (() => readAll(process.stdin)))() : UTF8.decode(readFileSync(file));
    } catch (e) {
      if (e instanceof TypeError) throw new HarnessError('BAD_CONFIG', `${name}: not a text file (it is not UTF-8: a binary file, or another encoding); name the YAML configuration file`);
      const code = (e as NodeJS.ErrnoException).code;
      throw new HarnessError('BAD_CONFIG', `${name}: cannot read the file (${code ?? (e as Error).message})`);
    }
    if (content.includes('\u0000')) throw new HarnessError('BAD_CONFIG', `${name}: not a text file (it holds NUL bytes: a binary file); name the YAML configuration file`);
    try {
      results.push(lintText(name, content, { dialect: opts.dialect as Dialect | undefined }));
    } catch (e) {
      if (e instanceof YamlSyntaxError) throw new HarnessError('BAD_CONFIG', `${name}:${e.line}:${e.column}: not valid YAML: ${e.message}`);
      throw e;
    }
  }
  const strict = opts.strict === true;
  const report = render(format, results, { strict, version: VERSION });
  if (opts.out) {
    try {
      writeFileSync(opts.out, `${report}\n`);
    } catch (e) {
      throw new HarnessError('BAD_FLAG', `--out: cannot write ${opts.out} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    io.out(`lint-config: ${summaryLine(results)}; ${format} report written to ${opts.out}`);
  } else io.out(report);
  return exitCodeOf(results, strict);
}
