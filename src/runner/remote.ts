// A run against a recording upstream that `gw-conformance mock` already holds on the port:
// the run is carried out inside the mock's process (the checks need the upstream in-process,
// on the same clock), and its progress and report come back as NDJSON over loopback. Load runs
// attach instead and run in their own process (src/upstream/remote.ts).
import type http from 'node:http';
import { request } from 'undici';
import type { Upstream } from '../upstream/upstream.js';
import { errorFromWire, HarnessError } from '../core/errors.js';
import { refuseNdjson } from '../core/server.js';
import type { RunConfig } from '../config/config.js';
import type { RunReport } from '../report/shared/types.js';
import type { CheckDef } from '../check/check.js';
import { runSuite } from './run.js';
import { plural } from '../core/words.js';

export const CONTROL_PREFIX = '/__gwc/';

type Msg =
  | { type: 'line'; text: string }
  | { type: 'report'; report: RunReport }
  | { type: 'error'; code: string; message: string }
  // Sent at once, and every HEARTBEAT_MS while checks run: whatever the reporters, the caller
  // sees bytes long before any time-out of its own.
  | { type: 'started' }
  | { type: 'heartbeat'; elapsedMs: number };

export const HEARTBEAT_MS = 5_000;
/** The caller gives up on a mock that sent nothing, not even a heartbeat, for this long. */
const SILENCE_MS = 6 * HEARTBEAT_MS;

/**
 * The mock's control endpoint: loopback callers only, one run at a time, and none while load runs
 * are attached (`attached` says so: mocks/upstream/attach.ts). Load runs do not come here: they
 * attach, and send their load themselves.
 */
export function controlHandler(upstream: Upstream, checks: CheckDef[], log: (s: string) => void, attached: () => number = () => 0) {
  // The profile of the run under way, if any.
  const running: string[] = [];
  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const remote = req.socket.remoteAddress ?? '';
    if (!/^(127\.|::1$|::ffff:127\.)/.test(remote)) {
      res.writeHead(403).end();
      return;
    }
    if (req.url === `${CONTROL_PREFIX}info`) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: 'gw-conformance-mock', url: upstream.url }));
      return;
    }
    if (req.url !== `${CONTROL_PREFIX}run` || req.method !== 'POST') {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      let asked: { cfg: RunConfig; target: string };
      try {
        asked = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { cfg: RunConfig; target: string };
      } catch {
        refuse(res, 400, 'BAD_FLAG', 'the run request is not JSON');
        return;
      }
      const { cfg, target } = asked;
      if (running.length || attached()) {
        refuse(res, 409, 'PORT_IN_USE', `the mock is already serving ${running.length ? 'another run' : `${plural(attached(), 'attached load run')}`}; wait for it to finish, or start another mock`);
        return;
      }
      running.push(cfg.profile);
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const send = (m: Msg) => res.write(`${JSON.stringify(m)}\n`);
      send({ type: 'started' });
      const t0 = Date.now();
      const heartbeat = setInterval(() => send({ type: 'heartbeat', elapsedMs: Date.now() - t0 }), HEARTBEAT_MS);
      try {
        log(`run requested against ${target}${cfg.shard ? ` (shard ${cfg.shard.index}/${cfg.shard.count})` : ''}`);
        const report = await runSuite(checks, cfg, target, upstream, (text) => send({ type: 'line', text }));
        send({ type: 'report', report });
        log(`run finished: ${report.summary.pass}/${report.summary.total} pass`);
      } catch (e) {
        const err = e as HarnessError;
        send({ type: 'error', code: err.code ?? 'INTERNAL', message: err.message });
      } finally {
        clearInterval(heartbeat);
        running.splice(running.indexOf(cfg.profile), 1);
        res.end();
      }
    });
  };
  /** Whether a run is under way (attached load runs wait for it). */
  return Object.assign(handle, { busy: () => running.length > 0 });
}

/** A refused run: one error message, a whole NDJSON line (the `error` message of Msg). */
export const refuse = refuseNdjson;

/** True when a gw-conformance mock answers on this base URL. */
export async function isOurMock(base: string): Promise<boolean> {
  try {
    const res = await request(`${base}${CONTROL_PREFIX}info`, { headersTimeout: 2000, bodyTimeout: 2000 });
    const body = (await res.body.json()) as { name?: string };
    return res.statusCode === 200 && body.name === 'gw-conformance-mock';
  } catch {
    return false;
  }
}

export async function runRemote(base: string, cfg: RunConfig, target: string, print: (s: string) => void): Promise<RunReport> {
  try {
    return await remote(base, cfg, target, print);
  } catch (e) {
    if (e instanceof HarnessError) throw e;
    const err = e as { code?: string; message?: string };
    throw new HarnessError('TARGET_UNREACHABLE', `the running \`gw-conformance mock\` at ${base} stopped answering (${err.code ?? err.message ?? String(e)})`);
  }
}

async function remote(base: string, cfg: RunConfig, target: string, print: (s: string) => void): Promise<RunReport> {
  const res = await request(`${base}${CONTROL_PREFIX}run`, { method: 'POST', body: JSON.stringify({ cfg, target }), headersTimeout: 10_000, bodyTimeout: SILENCE_MS });
  let buf = '';
  let report: RunReport | undefined;
  for await (const chunk of res.body) {
    buf += chunk.toString();
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const m = JSON.parse(buf.slice(0, nl)) as Msg;
      buf = buf.slice(nl + 1);
      if (m.type === 'line') print(m.text);
      else if (m.type === 'report') report = m.report;
      else if (m.type === 'error') throw errorFromWire(m.code, m.message);
      // started, heartbeat: the mock is alive.
    }
  }
  if (!report) throw new HarnessError('TARGET_UNREACHABLE', 'the mock ended the run without a report');
  return report;
}
