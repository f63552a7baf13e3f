// `gw-conformance mock`: only the recording upstream (or, with --service, the service emulator),
// so a gateway can be configured before the run; `run` then uses it. Registered at start-up; the
// upstream is loaded when the command runs (./action.ts).
import { COMMANDS } from '../../src/config/commands.js';
import type { MockOptions } from './action.js';
import { withOptions, type RegisterCommand } from '../shared/context.js';

export const registerMock: RegisterCommand = (program, { io, exit }) => {
  withOptions(program.command('mock').description(COMMANDS.mock.description), 'mock').action(async (o: MockOptions) => exit(await (await import('./action.js')).mock(o, io)));
};
