// `gw-conformance compare <base> <new>`: two runs' reports compared and shown in one format.
// Registered at start-up; the comparison is loaded when the command runs (./action.ts).
import { COMMANDS } from '../../src/config/commands.js';
import type { CompareFlags } from './action.js';
import { withOptions, type RegisterCommand } from '../shared/context.js';

export const registerCompare: RegisterCommand = (program, { io, exit }) => {
  const [base, now] = COMMANDS.compare.args!;
  withOptions(program.command('compare').description(COMMANDS.compare.description).argument(base.name, base.help).argument(now.name, now.help), 'compare').action(async (b: string, n: string, o: CompareFlags) =>
    exit(await (await import('./action.js')).compareCommand(b, n, o, io)),
  );
};
