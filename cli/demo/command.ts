// `gw-conformance demo`: the run's profile against the built-in reference gateway, optionally
// with one fault, as its module runs it (cli/profiles/: the suite, the reference apps
// gateway, real clients through the reference gateway), every protocol declared unless --protocols
// says otherwise. Registered at start-up; the action loads
// the checks, the profiles and the reference gateway when it runs.
import { HarnessError } from '../../src/core/errors.js';
import { COMMANDS } from '../../src/config/commands.js';
import { withOptions, type RegisterCommand } from '../shared/context.js';

export const registerDemo: RegisterCommand = (program, { io, argv, exit }) => {
  withOptions(program.command('demo').description(COMMANDS.demo.description), 'demo').action(async (o) => {
    const [{ runConfig }, { CHECKS }, { dryRun }, { PROFILE_MODULES }, { PROTOCOLS }] = await Promise.all([import('../shared/run-config.js'), import('../../suites/index.js'), import('../shared/dry-run.js'), import('../profiles/index.js'), import('../../src/core/protocols.js')]);
    // The reference gateway serves every protocol, MCP among them (not among a run's defaults): the demo declares them all unless
    // told, MCP only where its optional package (the official SDK, which its recording server is built on) is installed.
    const { resolvePackage, OPTIONAL_FEATURES } = await import('../../src/core/optional.js');
    const mcp = OPTIONAL_FEATURES.mcp.packages.every((n) => resolvePackage(n) !== null);
    const cfg = runConfig(o.protocols === undefined && !io.env.GWC_PROTOCOLS ? { ...o, protocols: PROTOCOLS.filter((p) => mcp || p !== 'mcp') } : o, io);
    if (o.dryRun) return exit(dryRun(CHECKS, cfg, io));
    if (cfg.launch.cmd || cfg.launch.image) throw new HarnessError('BAD_FLAG', `demo runs the built-in reference gateway: ${cfg.launch.cmd ? '--gateway-cmd' : '--gateway-image'} goes with \`run\``);
    exit(await PROFILE_MODULES[cfg.profile].demo(cfg, { io, argv, fault: o.fault, upstreamListen: o.upstreamListen }));
  });
};
