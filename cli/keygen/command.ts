// `gw-conformance keygen --out DIR`: an Ed25519 key pair for signing certify folders
// (certify --signing-key, verify --public-key). Registered at start-up; the key is made when the
// command runs (./action.ts).
import { COMMANDS } from '../../src/config/commands.js';
import { withOptions, type RegisterCommand } from '../shared/context.js';

export const registerKeygen: RegisterCommand = (program, { io }) => {
  withOptions(program.command('keygen').description(COMMANDS.keygen.description), 'keygen').action(async (o: { out: string }) => (await import('./action.js')).keygen(o, io));
};
