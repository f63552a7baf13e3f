// What `gw-conformance reference` does (registered by ./command.ts, loaded when it
// runs): the reference gateway on its own (or, with --apps, the reference apps gateway),
// optionally with one fault and a gateway-level limit, until stopped.
import { HarnessError, parseListen } from '../../src/core/errors.js';
import { basePath as parseBasePath } from '../../src/config/targeting.js';
import { ReferenceGateway } from '../../reference/gateway.js';
import { FAULTS, LOAD_FAULTS } from '../../reference/faults/index.js';
import { limitText, parseDeclaredLimit } from '../../src/core/limits.js';
import { flagOrEnv } from '../../src/config/option-values.js';
import { APPS_FAULTS } from '../../reference/apps/faults.js';
import { appsModules } from '../profiles/apps/apps.js';
import { faultNamed, type Io } from '../shared/context.js';

export interface ReferenceFlags {
  listen: string;
  upstream: string;
  fault?: string;
  upstreamTimeoutMs: string;
  basePath?: string;
  requireHeader: string[];
  apps?: boolean;
  config?: string;
  dataDir?: string;
  declaredLimit?: string[];
}

export async function reference(opts: ReferenceFlags, io: Io): Promise<number> {
  const fault = faultNamed(opts.fault, [...FAULTS, ...LOAD_FAULTS]);
  if (!/^https?:\/\//.test(opts.upstream)) throw new HarnessError('BAD_FLAG', `--upstream: expected an http:// URL, got "${opts.upstream}"`);
  const { host, port } = parseListen(opts.listen, '--listen');
  if (!/^\d+$/.test(opts.upstreamTimeoutMs)) throw new HarnessError('BAD_FLAG', `--upstream-timeout-ms: expected a whole number, got "${opts.upstreamTimeoutMs}"`);
  const base = opts.basePath === undefined ? undefined : parseBasePath(opts.basePath, '--base-path');
  const requireHeaders = opts.requireHeader.map((h): [string, string] => {
    const eq = h.indexOf('=');
    if (eq <= 0) throw new HarnessError('BAD_FLAG', `--require-header: expected NAME=VALUE, got "${h}"`);
    return [h.slice(0, eq).trim().toLowerCase(), h.slice(eq + 1)];
  });
  const limit = parseDeclaredLimit(flagOrEnv('declared-limit', { declaredLimit: opts.declaredLimit }, io.env) as Record<string, string>);
  const gw = new ReferenceGateway({ upstream: opts.upstream, fault, upstreamTimeoutMs: Number(opts.upstreamTimeoutMs), basePath: base, requireHeaders, limit });
  const url = await gw.start(host, port);
  const mode = [base ? `serving under ${base}/` : '', requireHeaders.length ? `requiring ${requireHeaders.map(([k]) => k).join(', ')}` : '', limit ? `limit ${limitText(limit)}` : ''].filter(Boolean).join(', ');
  io.out(`reference gateway listening on ${url}, forwarding to ${opts.upstream}${fault ? `, fault ${fault.name}` : ''}${mode ? `, ${mode}` : ''}`);
  await io.untilStopped();
  await gw.stop();
  return 0;
}

export async function referenceApps(opts: ReferenceFlags, io: Io): Promise<number> {
  if (!opts.config) throw new HarnessError('BAD_FLAG', 'reference --apps needs --config <gateway.yaml>');
  if (opts.declaredLimit?.length) throw new HarnessError('BAD_FLAG', 'reference --apps takes no --declared-limit (a limit of the plain reference gateway)');
  const fault = faultNamed(opts.fault, APPS_FAULTS, 'apps fault');
  const { loadAppsConfig, AppsGateway } = await appsModules();
  const cfg = loadAppsConfig(opts.config, io.env);
  const gw = new AppsGateway(cfg, { fault, dataDir: opts.dataDir, log: (l) => io.out(l) });
  const url = await gw.start();
  io.out(`reference apps gateway listening on ${url} (store: ${cfg.store.postgresUrl ? 'PostgreSQL' : opts.dataDir ? `PGlite in ${opts.dataDir}` : 'PGlite in memory'})${fault ? `, fault ${fault.name}` : ''}`);
  await io.untilStopped();
  await gw.stop();
  return 0;
}
