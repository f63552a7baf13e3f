// `gw-conformance lint-config <file...>`: the apps gateway configuration linter (src/lint/),
// loaded when the command runs.
import { COMMANDS } from '../../src/config/commands.js';
import { withOptions, type RegisterCommand } from '../shared/context.js';

export const registerLintConfig: RegisterCommand = (program, { io, exit }) => {
  const [files] = COMMANDS['lint-config'].args!;
  withOptions(program.command('lint-config').description(COMMANDS['lint-config'].description).argument(files.name, files.help), 'lint-config').action(
    async (f: string[], o: { dialect?: string; format?: string; out?: string; strict?: boolean }) => exit(await (await import('../../src/lint/index.js')).lintConfig(f, o, io)),
  );
};
