// Runs each real client's scripted session twice, straight at the recording upstream and
// through the gateway under test, one run after the other (never two at once: the timing of
// one must not disturb the other), and pairs the two runs for the client profile's checks.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ClientDriver, ClientRun, UpstreamRequest } from './types.js';

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
}

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
}

async function once(d: ClientDriver, via: 'straight' | 'gateway', base: string, o: SessionOptions): Promise<ClientRun> {
  o.upstream.begin();
  const workdir = path.join(o.workdir, d.name);
  mkdirSync(workdir, { recursive: true });
  const run = await d.run({ base, token: o.token, workdir, timeoutMs: o.timeoutMs });
  return { ...run, via, requests: await o.upstream.end() };
}

export async function runSessions(drivers: ClientDriver[], o: SessionOptions): Promise<ClientPair[]> {
  const pairs: ClientPair[] = [];
  for (const d of drivers) {
    const straight = await once(d, 'straight', o.upstream.url, o);
    const gateway = await once(d, 'gateway', o.gateway, o);
    o.print(`client ${d.name} ${straight.version}: ${straight.requests.length} requests straight, ${gateway.requests.length} through the gateway; exit ${straight.exit.code} / ${gateway.exit.code}`);
    pairs.push({ client: d.name, version: straight.version, straight, gateway, bases: { straight: o.upstream.url, gateway: o.gateway } });
  }
  return pairs;
}
