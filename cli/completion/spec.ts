// What shell completion offers, read from the program itself: its commands (src/config/commands.ts)
// and each command's flags as commander holds them (made from the option table,
// src/config/options.ts), each flag's values from its choices or its row's `values`, and the
// values the table cannot hold (fault names, check ids) given by the caller. The scripts for bash,
// zsh and fish (./bash.ts, ./zsh.ts, ./fish.ts) are written from this one description.
import type { Command, Option } from 'commander';
import { COMMANDS, optionsOf } from '../../src/config/commands.js';
import { COMMAND_NAMES, type CommandName } from '../../src/config/options.js';
import { HELP_ALL } from '../../src/config/help.js';

/** What follows a flag or stands as a positional argument. */
export type ValueKind = { kind: 'none' } | { kind: 'any' } | { kind: 'file' } | { kind: 'dir' } | { kind: 'words'; words: string[] };

export interface FlagSpec {
  /** `--target`. */
  flag: string;
  help: string;
  value: ValueKind;
}

export interface CommandCompletion {
  name: string;
  help: string;
  flags: FlagSpec[];
  /** The positional arguments' values (kind none: the command takes none). */
  args: ValueKind;
}

export interface CompletionSpec {
  program: string;
  commands: CommandCompletion[];
  /** The command that runs when the first word is a flag. */
  defaultCommand: string;
  /** Flags of the program itself (before any command). */
  topFlags: FlagSpec[];
}

/** Words the scripts hold unquoted in word lists: flags, command names, enum values, ids. */
const SAFE_WORD = /^[A-Za-z0-9][A-Za-z0-9._@%+=/-]*$|^--?[a-z0-9][a-z0-9-]*$/;

function safe(words: readonly string[], where: string): string[] {
  const bad = words.filter((w) => !SAFE_WORD.test(w));
  if (bad.length) throw new Error(`completion: ${where} offers words a completion script cannot hold: ${bad.join(', ')}`);
  return [...words];
}

/** The first clause of a help text, short enough for a completion menu. */
export function shortHelp(text: string): string {
  const plain = text.replace(/`/g, '').replace(/\s+/g, ' ').trim();
  const cut = plain.split(/(?<=[^.]{12})[;:(]|\. /)[0].trim();
  return cut.length > 70 ? `${cut.slice(0, 67).replace(/\s+\S*$/, '')}...` : cut;
}

function valueOf(o: Option, values: readonly string[] | undefined, where: string): ValueKind {
  if (!o.required && !o.optional) return { kind: 'none' };
  const words = o.argChoices ?? values;
  if (words?.length) return { kind: 'words', words: safe(words, where) };
  if (/<(file|file\.\.\.)>/.test(o.flags)) return { kind: 'file' };
  if (/<dir>/.test(o.flags)) return { kind: 'dir' };
  return { kind: 'any' };
}

function argsOf(cmd: Command, name: string): ValueKind {
  const args = cmd.registeredArguments;
  if (!args.length) return { kind: 'none' };
  const choices = args.flatMap((a) => a.argChoices ?? []);
  if (choices.length) return { kind: 'words', words: safe(choices, `${name}'s arguments`) };
  return args.every((a) => /^dir/.test(a.name())) ? { kind: 'dir' } : { kind: 'file' };
}

/**
 * The completion of a program whose commands are COMMAND_NAMES. `values` gives a flag's values
 * the option table does not hold (by flag name, for every command that has the flag).
 */
export function completionSpec(program: Command, values: Readonly<Record<string, readonly string[]>> = {}): CompletionSpec {
  const commands = COMMAND_NAMES.map((name): CommandCompletion => {
    const cmd = program.commands.find((c) => c.name() === name);
    if (!cmd) throw new Error(`completion: the command ${name} is not registered`);
    const rows = optionsOf(name as CommandName);
    const flags = cmd.options
      .filter((o) => !o.hidden && o.long)
      .map((o): FlagSpec => {
        const row = rows.find((r) => `--${r.name}` === o.long);
        return { flag: o.long!, help: shortHelp(o.negate ? o.description : (row?.help ?? o.description)), value: valueOf(o, row?.values ?? values[o.name()], `${name} ${o.long}`) };
      });
    flags.push({ flag: '--help', help: 'show the common flags of this command', value: { kind: 'none' } }, { flag: HELP_ALL, help: 'show every flag of this command', value: { kind: 'none' } });
    safe(flags.map((f) => f.flag), `${name}'s flags`);
    return { name, help: shortHelp(COMMANDS[name as CommandName].description), flags, args: argsOf(cmd, name) };
  });
  safe(commands.map((c) => c.name), 'the command list');
  const topFlags: FlagSpec[] = [
    { flag: '--version', help: 'print the version', value: { kind: 'none' } },
    { flag: '--help', help: 'list the commands', value: { kind: 'none' } },
  ];
  return { program: program.name(), commands, defaultCommand: 'run', topFlags };
}
