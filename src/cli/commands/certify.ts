// `gw-conformance certify`: the profile with a transcript, written as a conformance report folder.
import { COMMANDS } from '../../config/commands.js';
import { certify, type CertifyFlags } from '../certify.js';
import { runConfig, withOptions, type RegisterCommand } from '../shared.js';
import { withRecordingUpstream } from '../upstream.js';
import type { FlagValues } from '../../config/config.js';

export const registerCertify: RegisterCommand = (program, { io, argv, exit }) => {
  withOptions(program.command('certify').description(COMMANDS.certify.description), 'certify').action(async (o: FlagValues & CertifyFlags & { config?: string }) =>
    exit(await certify(runConfig(o, io), o, io, (cfg, extras) => withRecordingUpstream(cfg, io, extras), argv)),
  );
};
