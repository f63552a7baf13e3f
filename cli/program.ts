// The composition root: the program, its commands (one folder each under cli/, its command.ts
// registering itself; each action loads its own modules when it runs, so start-up loads only
// commander and the option table), and the error -> exit-code mapping. Only this file decides exit codes:
// 0 every MUST check passed, 1 a MUST check failed, 2 the harness could not run, 130 Ctrl-C.
import { Command, CommanderError, Help, type Option } from 'commander';
import { errorLine, HarnessError } from '../src/core/errors.js';
import { VERSION } from '../src/core/paths.js';
import { FIRST_STEPS, HELP_ALL, moreHelpText, SHORT_HELP_GROUPS } from '../src/config/help.js';
import { registerAppsConfig } from './apps-config/command.js';
import { registerCertify } from './certify/command.js';
import { registerCompare } from './compare/command.js';
import { registerDemo } from './demo/command.js';
import { registerLintConfig } from './lint-config/command.js';
import { registerList } from './list/command.js';
import { registerMatrix } from './matrix/command.js';
import { registerMergeReports } from './merge-reports/command.js';
import { registerMock } from './mock/command.js';
import { registerReference } from './reference/command.js';
import { registerRun } from './run/command.js';
import { registerVerify } from './verify/command.js';
import { registerKeygen } from './keygen/command.js';
import { registerCompletion } from './completion/command.js';
import type { Io, RegisterCommand } from './shared/context.js';
import { INTERRUPTED_EXIT } from './shared/interrupt.js';
import { usageError, usageLine } from './shared/usage.js';

export type { Io };

/** In the order `--help` lists them (that of the CLI reference, src/config/commands.ts). */
const COMMANDS: RegisterCommand[] = [registerRun, registerDemo, registerCertify, registerVerify, registerMergeReports, registerMock, registerReference, registerAppsConfig, registerList, registerLintConfig, registerCompare, registerMatrix, registerKeygen, registerCompletion];

/** A flag plain `--help` shows: in no group (commander's own), or in one of the short help's groups. */
const inShortHelp = (o: Option) => o.helpGroupHeading === undefined || SHORT_HELP_GROUPS.includes(o.helpGroupHeading);

export async function main(argv: string[], io: Io): Promise<number> {
  let code = 0;
  // --help shows the common groups of flags; --help-all is --help with every group.
  const all = argv.includes(HELP_ALL);
  const program = new Command()
    .name('gw-conformance')
    .description('Conformance test harness for LLM API gateways')
    .version(VERSION)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.out(s.trimEnd()),
      writeErr: (s) => io.err(s.trimEnd()),
      // Help is wrapped to the terminal it goes to (io.term), else at commander's 80 columns, whatever this process's own streams are.
      getOutHelpWidth: () => (io.term?.outIsTTY ? io.term.columns() : 80),
      getErrHelpWidth: () => (io.term?.errIsTTY ? io.term.columns() : 80),
    })
    // Each flag's help already says its values and default (src/config/help.ts): commander adds nothing.
    .configureHelp({
      optionDescription: (o) => o.description,
      visibleOptions(this: Help, cmd: Command) {
        const shown = Help.prototype.visibleOptions.call(this, cmd);
        return all ? shown : shown.filter(inShortHelp);
      },
    });
  for (const register of COMMANDS) register(program, { io, argv, exit: (c) => (code = c) });
  for (const cmd of program.commands) {
    const hidden = [...new Set(cmd.options.filter((o) => !o.hidden && !inShortHelp(o)).map((o) => o.helpGroupHeading!))];
    cmd.addHelpText('after', () => (all ? '' : moreHelpText(cmd.name(), hidden)));
  }
  program.addHelpText('after', FIRST_STEPS);
  for (const c of [program, ...program.commands]) c.configureOutput({ outputError: (s, write) => write(usageLine(c, s)) });
  const unknown = unknownCommand(program, argv[0]);
  if (unknown) {
    io.err(usageError(unknown));
    return 2;
  }
  try {
    await program.parseAsync(all ? argv.map((a) => (a === HELP_ALL ? '--help' : a)) : argv, { from: 'user' });
    return code;
  } catch (e) {
    return exitCodeOf(e, io);
  }
}

/**
 * The line for a first word that names no command, with the closest one (`lsit`: "unknown command
 * 'lsit' (did you mean list?)"), or null. `run` is the default command and takes no words, so
 * commander would call a misspelt command "too many arguments for 'run'": its own suggestion is
 * asked of a program with the same commands and no default.
 */
function unknownCommand(program: Command, word: string | undefined): string | null {
  if (!word || word.startsWith('-') || word === 'help' || program.commands.some((c) => c.name() === word || c.aliases().includes(word))) return null;
  const probe = new Command().exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
  for (const c of program.commands) probe.command(c.name()).action(() => {});
  try {
    probe.parse([word], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError && e.code === 'commander.unknownCommand') {
      const [what, hint] = e.message.replace(/^error: /, '').split('\n');
      return `${what}${hint ? ` ${hint.replace(/^\(Did/, '(did')}` : ''}; \`gw-conformance --help\` lists the commands`;
    }
  }
  return null;
}

/** Every error ends as exit 2 (130 for Ctrl-C) with one line (commander's through usageLine); --help and --version are 0. */
function exitCodeOf(e: unknown, io: Io): number {
  if (e instanceof CommanderError) return e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help' ? 0 : 2;
  if (!(e instanceof HarnessError)) {
    io.err(`gw-conformance: internal error: ${(e as Error).stack ?? String(e)}`);
    return 2;
  }
  io.err(`gw-conformance: ${errorLine(e)}`);
  return e.code === 'INTERRUPTED' ? INTERRUPTED_EXIT : 2;
}
