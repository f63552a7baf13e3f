// Runs each real client's scripted session twice, straight at the recording upstream and
// through the gateway under test, one run after the other (never two at once: the timing of
// one must not disturb the other), and pairs the two runs for the client profile's checks.
// Through the gateway each client is pointed at its protocol's base path and sends the
// protocol's targeting headers (a provider header, the upstream's URL), as the checks' requests do.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Protocol } from '../core/protocols.js';
import type { ClientDriver, ClientRun, UpstreamRequest } from './types.js';
import { plural } from '../core/words.js';

/** The recording upstream in session mode, as the composition root provides it. */
export interface SessionUpstream {
  url: string;
  /** Starts a fresh record (and fresh answer ids) for one run. */
  begin(): void;
  /** Every request of the run, once each has closed. */
  end(): Promise<UpstreamRequest[]>;
}

export interface ClientPair {
  client: string;
  version: string;
  straight: ClientRun;
  gateway: ClientRun;
  bases: { straight: string; gateway: string };
  /** Names of the headers the client sent the gateway only (its targeting): not the gateway's doing. */
  targeting: string[];
}

/** Where a protocol lives on the gateway and the headers it needs (the run's expanded targeting). */
export type ClientTargeting = Partial<Record<Protocol, { basePath: string; headers: Array<[string, string]> }>>;

/** What the client profile's checks get (CheckContext.fixture). */
export interface ClientFixture {
  pairs: ClientPair[];
  /** Where the clients ran: a loopback-only namespace or not, and why. */
  network: string;
}

export interface SessionOptions {
  upstream: SessionUpstream;
  gateway: string;
  token: string;
  workdir: string;
  timeoutMs: number;
  print: (s: string) => void;
  /** The gateway run only: the base path and headers of each client's protocol. */
  targeting?: ClientTargeting;
}

async function once(d: ClientDriver, via: 'straight' | 'gateway', base: string, headers: Array<[string, string]>, o: SessionOptions): Promise<ClientRun> {
  o.upstream.begin();
  const workdir = path.join(o.workdir, d.name);
  mkdirSync(workdir, { recursive: true });
  const run = await d.run({ base, token: o.token, headers, workdir, timeoutMs: o.timeoutMs });
  return { ...run, via, requests: await o.upstream.end() };
}

export async function runSessions(drivers: ClientDriver[], o: SessionOptions): Promise<ClientPair[]> {
  const pairs: ClientPair[] = [];
  for (const d of drivers) {
    // The straight run needs no targeting: the upstream serves every protocol at its root.
    const target = o.targeting?.[d.protocol] ?? { basePath: '', headers: [] };
    const base = `${o.gateway}${target.basePath}`;
    const straight = await once(d, 'straight', o.upstream.url, [], o);
    const gateway = await once(d, 'gateway', base, target.headers, o);
    o.print(`client ${d.name} ${straight.version}: ${plural(straight.requests.length, 'request')} straight, ${gateway.requests.length} through the gateway; exit ${straight.exit.code} / ${gateway.exit.code}`);
    pairs.push({ client: d.name, version: straight.version, straight, gateway, bases: { straight: o.upstream.url, gateway: base }, targeting: target.headers.map(([k]) => k.toLowerCase()) });
  }
  return pairs;
}
