// What a certify folder records of a gateway the harness started itself (--gateway-cmd or
// --gateway-image, with their --gateway-env and --gateway-arg), so that `verify` starts it again
// the same way: the command, never the one-run ports. Such a run listened on addresses picked
// for it (the gateway's {listen_port}; the recording upstream on a free port unless
// --upstream-listen named one), so neither its target nor an upstream address it did not use is
// recorded as something to aim at again.
import type { RunConfig } from './config.js';
import { optionByName } from './options.js';

/** The settings that start the gateway. */
export const LAUNCH_KEYS = ['gateway-cmd', 'gateway-image', 'gateway-env', 'gateway-arg'] as const;
const DEFAULT_LISTEN = optionByName('upstream-listen').default as string;

const startsGateway = (cfg: RunConfig) => Boolean(cfg.launch.cmd || cfg.launch.image);

/** The recorded settings of how the gateway was reached: the start command, or (a gateway of the user's) the upstream address it forwards to. */
export function launchSettings(cfg: RunConfig): Record<string, unknown> {
  if (!startsGateway(cfg)) return { 'upstream-listen': cfg.upstreamListen };
  return {
    ...(cfg.upstreamListen !== DEFAULT_LISTEN ? { 'upstream-listen': cfg.upstreamListen } : {}),
    ...(cfg.launch.cmd ? { 'gateway-cmd': cfg.launch.cmd } : {}),
    ...(cfg.launch.image ? { 'gateway-image': cfg.launch.image } : {}),
    ...(cfg.launch.env.length ? { 'gateway-env': cfg.launch.env } : {}),
    ...(cfg.launch.args.length ? { 'gateway-arg': cfg.launch.args } : {}),
  };
}

/** Whether recorded settings start the gateway. */
export const startsRecorded = (settings: Record<string, unknown>) => Boolean(settings['gateway-cmd'] || settings['gateway-image']);

/**
 * The settings and target verify runs with. A folder whose run started the gateway starts it
 * again (the recorded target was that run's alone), unless the user aims verify at a gateway of
 * their own with --target or gives another --gateway-cmd; any other folder re-runs against the
 * recorded target.
 */
export function verifyTarget(settings: Record<string, unknown>, recordedTarget: string, flags: { target?: string; gatewayCmd?: string }): { settings: Record<string, unknown>; target?: string } {
  if (flags.gatewayCmd || (flags.target && startsRecorded(settings))) {
    const rest = Object.fromEntries(Object.entries(settings).filter(([k]) => !(LAUNCH_KEYS as readonly string[]).includes(k)));
    return { settings: rest, target: flags.target };
  }
  return { settings, target: flags.target ?? (startsRecorded(settings) ? undefined : recordedTarget) };
}
