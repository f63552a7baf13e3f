// `gw-conformance matrix <dir...>`: many runs on one page (HTML, JSON or Markdown in --out).
// Registered at start-up; the matrix is loaded when the command runs (../actions/matrix.ts).
import { COMMANDS } from '../../config/commands.js';
import type { MatrixFormat } from '../actions/matrix.js';
import { withOptions, type RegisterCommand } from '../shared.js';

export const registerMatrix: RegisterCommand = (program, { io, exit }) => {
  const [dirs] = COMMANDS.matrix.args!;
  withOptions(program.command('matrix').description(COMMANDS.matrix.description).argument(dirs.name, dirs.help), 'matrix').action(async (d: string[], o: { out: string; format: MatrixFormat; label: string[] }) => {
    exit((await import('../actions/matrix.js')).matrixCommand(d, o, io));
  });
};
