// `gw-conformance apps-config`: writes a gateway configuration (public dialect) for the apps
// profile and its secrets beside it (FILE.env, mode 0600). Registered at start-up; what it writes
// is made when the command runs (./action.ts).
import { COMMANDS } from '../../src/config/commands.js';
import type { AppsConfigFlags } from './action.js';
import { withOptions, type RegisterCommand } from '../shared/context.js';

export const registerAppsConfig: RegisterCommand = (program, { io }) => {
  withOptions(program.command('apps-config').description(COMMANDS['apps-config'].description), 'apps-config').action(async (o: AppsConfigFlags) => (await import('./action.js')).appsConfig(o, io));
};
