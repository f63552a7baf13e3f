// `gw-conformance matrix <dir...>`: many runs on one page (HTML, JSON or Markdown in --out).
// Registered at start-up; the matrix is loaded when the command runs (./action.ts).
import { COMMANDS } from '../../src/config/commands.js';
import type { MatrixFormat } from './action.js';
import { withOptions, type RegisterCommand } from '../shared/context.js';

export const registerMatrix: RegisterCommand = (program, { io, exit }) => {
  const [dirs] = COMMANDS.matrix.args!;
  withOptions(program.command('matrix').description(COMMANDS.matrix.description).argument(dirs.name, dirs.help), 'matrix').action(async (d: string[], o: { out: string; format: MatrixFormat; label: string[] }) => {
    exit((await import('./action.js')).matrixCommand(d, o, io));
  });
};
