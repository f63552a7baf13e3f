// `gw-conformance apps-config`: writes a gateway configuration (public dialect) for the apps
// profile and its secrets beside it (FILE.env, mode 0600). Registered at start-up; what it writes
// is made when the command runs (../actions/apps-config.ts).
import { COMMANDS } from '../../config/commands.js';
import type { AppsConfigFlags } from '../actions/apps-config.js';
import { withOptions, type RegisterCommand } from '../shared.js';

export const registerAppsConfig: RegisterCommand = (program, { io }) => {
  withOptions(program.command('apps-config').description(COMMANDS['apps-config'].description), 'apps-config').action(async (o: AppsConfigFlags) => (await import('../actions/apps-config.js')).appsConfig(o, io));
};
