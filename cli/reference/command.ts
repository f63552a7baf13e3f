// `gw-conformance reference`: the reference gateway on its own (or, with --apps, the reference
// apps gateway), optionally with one fault and a gateway-level limit, until stopped. Registered
// at start-up; the gateway is loaded when the command runs (./action.ts).
import { COMMANDS } from '../../src/config/commands.js';
import { DEMO_UPSTREAM_TIMEOUT_MS } from '../../reference/defaults.js';
import type { ReferenceFlags } from './action.js';
import { withOptions, type RegisterCommand } from '../shared/context.js';

export const registerReference: RegisterCommand = (program, { io, exit }) => {
  const known = { defaults: { 'upstream-timeout-ms': String(DEMO_UPSTREAM_TIMEOUT_MS) } };
  withOptions(program.command('reference').description(COMMANDS.reference.description), 'reference', known).action(async (o: ReferenceFlags) => {
    const { reference, referenceApps } = await import('./action.js');
    exit(await (o.apps ? referenceApps(o, io) : reference(o, io)));
  });
};
