// `gw-conformance verify <dir>`: re-runs a certify folder with its recorded seed and settings.
import { COMMANDS } from '../../config/commands.js';
import { verify, type VerifyFlags } from '../certify.js';
import { withOptions, type RegisterCommand } from '../shared.js';
import { withRecordingUpstream } from '../upstream.js';

export const registerVerify: RegisterCommand = (program, { io, exit }) => {
  const [dir] = COMMANDS.verify.args!;
  withOptions(program.command('verify').description(COMMANDS.verify.description).argument(dir.name, dir.help), 'verify').action(async (d: string, o: VerifyFlags) =>
    exit(await verify(d, o, io, (cfg, extras) => withRecordingUpstream(cfg, io, extras))),
  );
};
