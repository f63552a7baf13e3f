// What `gw-conformance mock` does (registered by ./command.ts, loaded when it runs): only
// the recording upstream (or, with --service, the service emulator), so a gateway can be
// configured before the run; `run` then uses it.
import { HarnessError, parseListen } from '../../src/core/errors.js';
import { SERVICE_ENV } from '../../src/config/config.js';
import { RecordingUpstream } from '../../mocks/upstream/server.js';
import { BLOCKED_NATIVE_MODEL, ServiceEmulator } from '../../mocks/upstream/service.js';
import { Capture, parseDelays } from '../../mocks/upstream/capture.js';
import { CHECKS } from '../../suites/index.js';
import { controlHandler } from '../../src/runner/remote.js';
import { BlockList, isIP } from 'node:net';
import { Attachments } from '../../mocks/upstream/attach.js';
import { ATTACH_PATH } from '../../src/upstream/attach-wire.js';
import { recordingTls } from '../profiles/upstream.js';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Io } from '../shared/context.js';
import { flagOrEnv } from '../../src/config/option-values.js';

export type MockOptions = { listen: string; service?: boolean; capture?: string; captureDelay: string[]; attachFrom: string[]; upstreamTls?: boolean; upstreamHttp2?: boolean };

/** --attach-from: the addresses that may attach load runs, or null for loopback only. A bad block is one line, exit 2. */
export function attachFrom(values: string[]): BlockList | null {
  const blocks = values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  if (!blocks.length) return null;
  const list = new BlockList();
  for (const b of blocks) {
    const [addr, bits, extra] = b.split('/');
    const type = isIP(addr) === 6 ? 'ipv6' : isIP(addr) === 4 ? 'ipv4' : null;
    const prefix = bits === undefined ? (type === 'ipv6' ? 128 : 32) : /^\d+$/.test(bits) ? Number(bits) : NaN;
    if (!type || extra !== undefined || !(prefix <= (type === 'ipv6' ? 128 : 32))) throw new HarnessError('BAD_FLAG', `--attach-from: expected an address or a CIDR block such as 10.0.0.0/8, got "${b}"`);
    list.addSubnet(addr, prefix, type);
  }
  return list;
}

export async function mock(opts: MockOptions, io: Io): Promise<number> {
  const { host, port } = parseListen(opts.listen, '--listen');
  if (opts.service) return mockService(host, port, io);
  const allowed = attachFrom(opts.attachFrom);
  // The TLS settings are run settings: flag or environment variable, as their help says.
  const on = flagOrEnv('upstream-tls', { upstreamTls: opts.upstreamTls }, io.env) === true;
  const http2 = flagOrEnv('upstream-http2', { upstreamHttp2: opts.upstreamHttp2 }, io.env) === true;
  const tls = await recordingTls({ upstreamTls: { on, http2 }, launch: { env: [], args: [] } }, host);
  const upstream = new RecordingUpstream(tls);
  if (opts.captureDelay.length && !opts.capture) throw new HarnessError('BAD_FLAG', '--capture-delay needs --capture');
  if (opts.capture) upstream.capture = Capture.open({ file: opts.capture, delays: parseDelays(opts.captureDelay) });
  const log = (s: string) => io.out(`mock: ${s}`);
  // Attached load runs and a run of another profile do not share the mock: each asks the other.
  const attachments: Attachments = new Attachments(upstream, { allowed, busy: () => (control.busy() ? 'the mock is serving a run of another profile; attach when it has finished' : null), log });
  const control = controlHandler(upstream, CHECKS, log, () => attachments.count);
  upstream.control = (req, res) => (req.url?.startsWith(ATTACH_PATH) ? attachments.handle(req, res) : control(req, res));
  upstream.onUnmatched = (u, late) => {
    io.out(`mock: unmatched ${u.method} ${u.url}: ${u.reason}`);
    attachments.unmatched(u, late);
  };
  await upstream.start(host, port);
  io.out(`recording upstream listening on ${upstream.url}`);
  if (tls) io.out(`the recording upstream's CA (tell the gateway to trust it): ${tls.caFile}`);
  if (opts.capture) io.out(`capture mode: requests with no case token are answered as the real API would; every request is appended to ${opts.capture}`);
  io.out(`configure the gateway to forward to ${upstream.url}, then run: gw-conformance --target <gateway URL> --upstream-listen ${opts.listen}`);
  io.out(`load runs attach and send their own load: gw-conformance run --profile load --target <gateway URL> --attach ${upstream.url}${allowed ? ` (callers allowed: ${opts.attachFrom.join(', ')})` : ' (from this machine; --attach-from allows others)'}`);
  await io.untilStopped();
  await upstream.stop();
  if (tls) await rm(dirname(tls.caFile), { recursive: true, force: true });
  return 0;
}

/** `mock --service`: the service emulator, standing in for the hosted service of the service profile. */
async function mockService(host: string, port: number, io: Io): Promise<number> {
  const key = io.env[SERVICE_ENV.key]?.trim();
  if (!key) throw new HarnessError('BAD_CONFIG', `mock --service needs ${SERVICE_ENV.key} in the environment: the one key the emulator accepts`);
  const service = new ServiceEmulator({ key });
  const url = await service.start(host, port);
  io.out(`service emulator listening on ${url}: the three protocols under the key in ${SERVICE_ENV.key}; native model ${BLOCKED_NATIVE_MODEL} always answers blocked (SAFETY)`);
  io.out(`run: gw-conformance run --profile service --target ${url} (with ${Object.values(SERVICE_ENV).join(', ')} set)`);
  await io.untilStopped();
  await service.stop();
  return 0;
}
