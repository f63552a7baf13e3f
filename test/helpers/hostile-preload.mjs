// Loaded into the harness's process by the hostile-gateway tests (node --import): records every
// outgoing connection the harness opens (to prove it contacts only the target and its own
// upstream), and its peak RSS at exit.
import net from 'node:net';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';

const netLog = process.env.GWC_NET_LOG;
const rssFile = process.env.GWC_RSS_FILE;
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const o = first && typeof first === 'object' ? first : { port: first, host: typeof args[1] === 'string' ? args[1] : undefined };
  if (netLog) appendFileSync(netLog, `${JSON.stringify({ host: o.host ?? (o.path ? `unix:${o.path}` : 'localhost'), port: o.port === undefined ? null : Number(o.port) })}\n`);
  return connect.apply(this, args);
};
// The peak RSS of this process's own image, in KiB: VmHWM. Not resourceUsage().maxRSS: Linux
// keeps the larger of the pre-exec image's high-water mark there, and a spawned child's pre-exec
// image is a copy of its parent (the test worker, whose RSS grows case after case), so maxRSS
// read the worker's size, not the harness's (three cases once read the same 181 MB).
const ownPeakKiB = () => {
  try {
    const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]);
  } catch {}
  return process.resourceUsage().maxRSS;
};
if (rssFile) process.on('exit', () => writeFileSync(rssFile, String(ownPeakKiB())));
