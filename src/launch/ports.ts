// Loopback ports for gateways the harness starts: a free one, and whether one accepts connections.
import net from 'node:net';

/**
 * Where a port for something started later is looked for: below the ephemeral range (Linux's
 * default is 32768 to 60999), from which the system hands out the ports of outgoing connections
 * and of `listen(0)`. A port found free there stays free until it is used, unless another
 * program picks the same one; one from the ephemeral range was seen taken in between by a
 * connection of another process (a loaded run of the self-tests: "already in use").
 */
const LOW = 20_000;
const HIGH = 32_768;
const TRIES = 64;

/** Whether `port` can be listened on now (and is let go again at once); null: not a port to offer (in use). */
function tryPort(port: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', (e: NodeJS.ErrnoException) => (e.code === 'EADDRINUSE' || e.code === 'EACCES' ? resolve(null) : reject(e)));
    s.listen(port, '127.0.0.1', () => {
      const { port: got } = s.address() as net.AddressInfo;
      s.close(() => resolve(got));
    });
  });
}

/** A loopback port free at the time of the call, below the ephemeral range where one is (else one the system gives). */
export async function freePort(): Promise<number> {
  for (let i = 0; i < TRIES; i++) {
    const got = await tryPort(LOW + Math.floor(Math.random() * (HIGH - LOW)));
    if (got !== null) return got;
  }
  const got = await tryPort(0);
  if (got === null) throw new Error('no free loopback port');
  return got;
}

/** Whether something accepts a TCP connection on this loopback port (within 1 s). */
export function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.setTimeout(1_000);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('timeout', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', () => resolve(false));
  });
}
