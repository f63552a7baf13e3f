// What the command files share: the process's input and output, the command context, the
// commander options made from the option table and the fault look-up. Kept light (commander and
// the option table): every command is registered at start-up, and its action loads the rest
// (the run configuration is ./run-config.ts).
import { Option, type Command } from 'commander';
import { HarnessError } from '../../src/core/errors.js';
import { unknownValue } from '../../src/core/suggest.js';
import type { CommandName, OptionSpec } from '../../src/config/options.js';
import { optionsOf } from '../../src/config/commands.js';
import { examplesText, HELP_GROUPS, helpGroupOf, helpLine } from '../../src/config/help.js';

/** How the process's streams look (the bin fills it; without it nothing is a terminal). */
export interface Terminal {
  outIsTTY: boolean;
  errIsTTY: boolean;
  columns(): number;
  /** Writes to standard error as is (no line feed added). */
  writeErr(s: string): void;
}

export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  env: NodeJS.ProcessEnv;
  /** Resolves when the user asks a long-running command (mock, reference) to stop. */
  untilStopped: () => Promise<void>;
  /** Standard input, read whole (`lint-config -`); absent: the process's. */
  stdin?: () => Promise<string>;
  /** Which streams are terminals, and a raw writer for the status line (cli/shared/progress.ts); absent: none is. */
  term?: Terminal;
}

/** What a command file gets: the io, the arguments of this invocation (for replay commands) and where its exit code goes. */
export interface CommandContext {
  io: Io;
  argv: string[];
  exit: (code: number) => void;
}

export type RegisterCommand = (program: Command, ctx: CommandContext) => void;

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** The commander option of one row of the option table (src/config/options.ts). */
export function commanderOption(o: OptionSpec): Option {
  const flag = o.kind === 'bool' ? `--${o.name}` : `--${o.name} ${o.arg ?? '<value>'}`;
  const opt = new Option(flag, helpLine(o));
  // Lists and maps repeat; their values are parsed with the rest in resolveOptions.
  if (o.kind === 'list' || o.kind === 'enum-list' || o.kind === 'map') opt.argParser(collect);
  // Commands other than the run commands parse their own flags: the table gives choices and defaults.
  if (o.choices && o.values) opt.choices([...o.values]);
  if (o.flagDefault !== undefined) opt.default(o.flagDefault);
  return opt;
}

/**
 * Adds the options the table gives this command. `known` gives values the table cannot hold
 * (src/ does not import the reference gateway): the fault names, a default of the reference.
 */
export function withOptions(cmd: Command, name: CommandName, known: { choices?: Record<string, readonly string[]>; defaults?: Record<string, string> } = {}): Command {
  // commander shows the groups in the order their first flags come: sort the flags by group.
  const order: readonly string[] = HELP_GROUPS;
  const rank = (o: OptionSpec) => (order.indexOf(helpGroupOf(o, name)) + order.length + 1) % (order.length + 1);
  for (const o of [...optionsOf(name)].sort((a, b) => rank(a) - rank(b))) {
    const opt = commanderOption(o);
    const choices = known.choices?.[o.name];
    if (choices) opt.choices([...choices]);
    const d = known.defaults?.[o.name];
    if (d !== undefined) opt.default(d);
    if (o.required) opt.makeOptionMandatory();
    const group = helpGroupOf(o, name);
    cmd.addOption(opt.helpGroup(group));
    if (o.negate) cmd.addOption(new Option(`--no-${o.name}`, o.negate.replace(/`/g, '')).helpGroup(group));
  }
  const examples = examplesText(name);
  if (examples) cmd.addHelpText('after', examples);
  return cmd;
}

/** The fault of this name, or undefined when no name was given; an unknown name is a harness error naming the closest. */
export function faultNamed<F extends { name: string }>(name: string | undefined, faults: readonly F[], kind = 'fault'): F | undefined {
  if (name === undefined) return undefined;
  const fault = faults.find((f) => f.name === name);
  if (!fault) throw new HarnessError('UNKNOWN_FAULT', unknownValue(kind, name, faults.map((f) => f.name), '`gw-conformance list --faults` names them'));
  return fault;
}
