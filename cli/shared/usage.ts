// commander's errors (an unknown or incomplete flag, a missing argument, a value not among the
// choices) in the tool's own words: one line with the tool's prefix and the USAGE code
// (`gw-conformance: error GWC-USAGE: ...`, as a HarnessError's line), for a mistyped flag the
// closest flags of the command (every group's, also those the short help leaves out), and where
// the command's flags are listed.
import type { Command } from 'commander';
import { errorLine, HarnessError } from '../../src/core/errors.js';
import { closest } from '../../src/core/suggest.js';
import { HELP_ALL } from '../../src/config/help.js';

/** Every long flag `cmd` takes, without the dashes: its options (the `--no-` ones too) and the help flags. */
function flagsOf(cmd: Command): string[] {
  const own = cmd.options.map((o) => o.long).filter((f): f is string => !!f);
  return [...own, '--help', HELP_ALL, ...(cmd.parent ? [] : ['--version'])].map((f) => f.replace(/^--/, ''));
}

/** The line for commander's error text `text` (its `error: ` and its own suggestion replaced). */
export function usageLine(cmd: Command, text: string): string {
  const [first, ...rest] = text.trim().replace(/^error: /, '').split('\n');
  const help = `see \`gw-conformance${cmd.parent ? ` ${cmd.name()}` : ''} --help\``;
  const unknown = /^unknown option '(.*)'$/.exec(first);
  if (!unknown) return usageError(`${[first, ...rest.filter((l) => !/^\(Did you mean/.test(l))].join(' ').replace(/\.$/, '')}; ${help}`);
  const flag = unknown[1].split('=')[0];
  const near = flag.startsWith('--') ? closest(flag.slice(2), flagsOf(cmd)) : [];
  return usageError(`unknown option '${unknown[1]}'${near.length ? ` (did you mean ${near.map((n) => `--${n}`).join(' or ')}?)` : ''}; ${help}`);
}

/** A usage mistake's whole line: the tool's prefix and USAGE's code, as every HarnessError is printed. */
export const usageError = (message: string): string => `gw-conformance: ${errorLine(new HarnessError('USAGE', message))}`;
