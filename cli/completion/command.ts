// `gw-conformance completion <shell>`: prints the shell's completion script, made from the
// registered commands and their flags (the option table) when it runs, with the values the table
// cannot hold: the reference gateway's fault names (`--fault`) and the check ids (`--only`,
// `--skip`), loaded by the action.
import { Argument } from 'commander';
import { COMMANDS, COMPLETION_SHELLS, type CompletionShell } from '../../src/config/commands.js';
import { withOptions, type RegisterCommand } from '../shared/context.js';

export const registerCompletion: RegisterCommand = (program, { io }) => {
  const [shell] = COMMANDS.completion.args!;
  const cmd = program.command('completion').description(COMMANDS.completion.description).addArgument(new Argument(shell.name, shell.help).choices(COMPLETION_SHELLS));
  withOptions(cmd, 'completion').action(async (name: CompletionShell) => {
    const [{ APPS_FAULTS }, { FAULTS, LOAD_FAULTS }, { CHECKS }, { COMPLETION_SCRIPTS, completionSpec }] = await Promise.all([
      import('../../reference/apps/faults.js'),
      import('../../reference/faults/index.js'),
      import('../../suites/index.js'),
      import('./index.js'),
    ]);
    const checks = CHECKS.map((c) => c.id);
    const faults = [...FAULTS, ...LOAD_FAULTS, ...APPS_FAULTS].map((f) => f.name);
    io.out(COMPLETION_SCRIPTS[name](completionSpec(program, { fault: faults, only: checks, skip: checks })).trimEnd());
  });
};
