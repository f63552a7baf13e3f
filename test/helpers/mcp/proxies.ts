// The real proxies MCP runs go through, each from its example configuration (examples/), started
// inside the loopback-only namespace by test/helpers/mcp/ns-run.mjs. In a namespace of its own
// every port is free, so the examples' literal addresses are used as they are: the proxy on
// 127.0.0.1:8080, the MCP server on 127.0.0.1:18080 (the launch scripts substitute nothing).
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT } from '../cli.js';
import type { NsOptions } from './run.js';

export const PROXY_LISTEN = '127.0.0.1:8080';
export const SERVER_LISTEN = '127.0.0.1:18080';

const script = (name: string) => path.join(ROOT, 'scripts', name);
const example = (...p: string[]) => path.join(ROOT, 'examples', ...p);

/** A proxy by its example's name: the program, whether it is installed, and whether CI requires it. */
export interface Proxy {
  name: string;
  program: 'nginx' | 'haproxy' | 'caddy';
  gateway: NonNullable<NsOptions['gateway']>;
}

const nginx = (conf: string): Proxy => ({
  name: `nginx ${conf}`,
  program: 'nginx',
  gateway: { cmd: 'sh', args: [script('nginx-gateway.sh'), example('nginx', conf), '8080', '18080', '{WORK}'], listen: PROXY_LISTEN },
});
const haproxy = (cfg: string): Proxy => ({
  name: `haproxy ${cfg}`,
  program: 'haproxy',
  gateway: { cmd: 'sh', args: [script('haproxy-gateway.sh'), example('haproxy', cfg), '8080', '18080', '{WORK}'], listen: PROXY_LISTEN },
});
const caddy = (file: string): Proxy => ({
  name: `caddy ${file}`,
  program: 'caddy',
  gateway: {
    cmd: 'caddy',
    args: ['run', '--adapter', 'caddyfile', '--config', example('caddy', file)],
    // Caddy keeps its state under XDG folders: the run's own folder.
    env: { GWC_SITE: `http://${PROXY_LISTEN}`, GWC_UPSTREAM: SERVER_LISTEN, XDG_DATA_HOME: '{WORK}', XDG_CONFIG_HOME: '{WORK}' },
    listen: PROXY_LISTEN,
  },
});

/** The example configurations of the three proxies, as a user starts them. */
export const PROXIES: Proxy[] = [nginx('plain.conf'), nginx('streaming.conf'), nginx('hardened.conf'), haproxy('haproxy.cfg'), caddy('plain.Caddyfile')];

const VERSION_ARGS = { nginx: ['-v'], haproxy: ['-v'], caddy: ['version'] } as const;
const REQUIRE_ENV = { nginx: 'GWC_REQUIRE_NGINX', haproxy: 'GWC_REQUIRE_HAPROXY', caddy: 'GWC_REQUIRE_CADDY' } as const;

/** True when the program answers its version flag. */
export const installed = (p: Proxy['program']): boolean => spawnSync(p, [...VERSION_ARGS[p]], { stdio: 'ignore', timeout: 5_000 }).status === 0;
/** True when CI requires the program (.ci/run installs it and sets its GWC_REQUIRE_*). */
export const requiredProgram = (p: Proxy['program']): boolean => process.env[REQUIRE_ENV[p]] === '1';
