// One line for a YAML text the YAML library could not parse: the file, the line and column the
// library gives, and its reason, as `file:line:col: not valid YAML: reason` (the form lint-config
// prints too). The library's own message ends with the position and an excerpt of the source on
// the lines after it; a one-line error keeps the position and the reason.
import { YAMLError } from 'yaml';

/** The line for `e` thrown while parsing `file`'s YAML (any error: the library's, or an alias bomb's). */
export function yamlErrorLine(file: string, e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const at = e instanceof YAMLError ? e.linePos?.[0] : undefined;
  const reason = message.replace(/ at line \d+, column \d+:[\s\S]*$/, '').split('\n')[0].trim();
  return `${file}${at ? `:${at.line}:${at.col}` : ''}: not valid YAML: ${reason}`;
}
