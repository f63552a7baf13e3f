// How `--help` presents the option table: which groups the short help shows (each run setting's
// group is on its row in src/config/options.ts), one line of help per flag (its environment
// variable and default), the examples closing a command's help (given with the command,
// src/config/commands.ts), and the first steps closing the top-level help.
import { COMMAND_OPTIONS, COMMANDS } from './commands.js';
import { HELP_GROUPS, type CommandName, type OptionSpec } from './options.js';

export { HELP_GROUPS };

/**
 * The groups plain `--help` shows (besides a command's own "Options:"); `--help-all` shows every
 * group. A command whose help leaves groups out ends with a line naming them.
 */
export const SHORT_HELP_GROUPS: readonly string[] = ['Targeting:', 'Credential:', 'Selection:', 'Reports and verdicts:', 'Options:'];

/** The flag that shows every group. */
export const HELP_ALL = '--help-all';

/** The line closing a command's short help when it left groups out, or '' when it left none. */
export function moreHelpText(command: string, hidden: readonly string[]): string {
  return hidden.length ? `\nMore options: ${hidden.map((g) => g.replace(/:$/, '')).join(', ')}.\nEvery flag: gw-conformance ${command} ${HELP_ALL}` : '';
}

/** The help group of a flag of `command`: its run-settings group, or the command's own "Options:". */
export function helpGroupOf(o: OptionSpec, command: CommandName): string {
  if (COMMAND_OPTIONS.some((c) => c.name === o.name && c.commands!.includes(command))) return 'Options:';
  return o.group ?? 'Other:';
}

/** One flag's help: the text, its environment variable, its default (`default: x`, never "default default"). */
export function helpLine(o: OptionSpec): string {
  const d = o.defaultText;
  const shown = !d ? '' : d.startsWith('(') ? ` ${d.replace(/`/g, '')}` : ` (default: ${/^`.*`$/.test(d) ? `"${d.slice(1, -1)}"` : d.replace(/`/g, '')})`;
  const values = o.choices && o.values ? ` (${o.values.join(', ')})` : '';
  return `${o.help.replace(/`/g, '')}${values}${o.env ? ` [env ${o.env}]` : ''}${shown}`;
}

/** The examples as `--help` shows them after the options, or '' for a command without. */
export function examplesText(command: CommandName): string {
  const ex = COMMANDS[command].examples;
  return ex ? `\nExamples:\n${ex.map((e) => `  $ ${e}`).join('\n')}` : '';
}

/** Closes the top-level help: the first three commands and the flag every real run needs. */
export const FIRST_STEPS = [
  '',
  'First steps:',
  '  $ gw-conformance demo                                   # the suite against the built-in reference gateway',
  '  $ gw-conformance mock                                   # the recording upstream: set your gateway\'s upstream to http://127.0.0.1:18080',
  '  $ gw-conformance run --target http://127.0.0.1:8080     # the suite against your gateway (--token, or --no-token)',
  '',
  'The common flags of a command: gw-conformance <command> --help; every flag: --help-all (e.g. run --help-all); the reference: docs/cli.md',
].join('\n');
