// What `gw-conformance apps-config` does (registered by ./command.ts, loaded when
// it runs): writes a gateway configuration (public dialect) for the apps profile and its secrets
// beside it (FILE.env, mode 0600). The secrets are generated values a
// gateway trusts: inside a git work tree they could be committed by mistake, so writing them
// there needs --force.
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { HarnessError } from '../../src/core/errors.js';
import { appsEnvFileOf, appsModules } from '../profiles/apps/apps.js';
import type { Io } from '../shared/context.js';

export interface AppsConfigFlags {
  dialect: string;
  port: string;
  portsBase: string;
  out?: string;
  postgresUrl?: string;
  force?: boolean;
}

const portNumber = (v: string, flag: string, room = 0) => {
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) + room > 65535) throw new HarnessError('BAD_FLAG', `${flag}: expected a port number${room ? ` up to ${65535 - room}` : ''}, got "${v}"`);
  return Number(v);
};

/** The git work tree holding `file`'s folder (a `.git` folder or file in it or above), or null. */
export function gitWorkTreeOf(file: string): string | null {
  for (let dir = dirname(resolve(file)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

export async function appsConfig(o: AppsConfigFlags, io: Io): Promise<void> {
  if (o.dialect !== 'claude-apps-gateway') throw new HarnessError('BAD_FLAG', `--dialect: only claude-apps-gateway is written so far, got "${o.dialect}"`);
  const gatewayPort = portNumber(o.port, '--port');
  const base = portNumber(o.portsBase, '--ports-base', 4);
  if (gatewayPort >= base && gatewayPort <= base + 4) throw new HarnessError('BAD_FLAG', `--port ${gatewayPort} is one of the harness's ports (${base}-${base + 4}, from --ports-base)`);
  if (o.postgresUrl !== undefined && !/^postgres(ql)?:\/\//.test(o.postgresUrl)) throw new HarnessError('BAD_FLAG', `--postgres-url: expected a postgres:// URL, got "${o.postgresUrl}"`);
  const envFile = o.out === undefined ? undefined : appsEnvFileOf(o.out);
  const repo = envFile && !o.force ? gitWorkTreeOf(envFile) : null;
  if (repo) throw new HarnessError('BAD_FLAG', `apps-config: ${envFile} would hold the gateway's secrets inside the git work tree ${repo}; write it elsewhere (--out), or give --force`);
  const { harness } = await appsModules();
  const around = new harness.AppsSurroundings({ ports: harness.portsFromBase(base) });
  const text = around.config({ port: gatewayPort, postgresUrl: o.postgresUrl });
  for (const l of around.describe()) io.err(`apps-config: ${l}`);
  if (!o.out || !envFile) {
    io.out(text.trimEnd());
    io.err('apps-config: no --out: the secrets were not written (with --out FILE they go to FILE.env, which `run --profile apps --apps-config FILE` reads)');
    return;
  }
  writeFileSync(o.out, text);
  writeFileSync(envFile, harness.envFileText(around), { mode: 0o600 });
  chmodSync(envFile, 0o600);
  io.err(`apps-config: wrote ${o.out} and its secrets ${envFile} (mode 0600; ${[...Object.values(harness.SECRET_ENV), ...Object.keys(harness.LOOPBACK_ENV)].join(', ')}: the gateway's environment)`);
  io.err(`apps-config: start the gateway with both, then: gw-conformance run --profile apps --apps-config ${o.out} --target http://127.0.0.1:${gatewayPort}`);
}
