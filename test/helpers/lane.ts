// What the test processes of one run share, through one small HTTP server on loopback that a
// project's global setup starts (test/helpers/lane-setup.ts; vitest.config.ts):
// - lanes: at most a lane's capacity of its files run at once, while every other file runs
//   around them in the same pool of workers (one schedule, not groups one after another). A file
//   holds its place through one open answer for as long as it runs, so a file whose process
//   dies gives its place back with the connection. Places go in the order they were asked for.
// - a board: a value made once and read by every file that needs it (the detection matrix's
//   traced clean run). The first file to ask makes it; the others wait until it is put.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Coordinator {
  url: string;
  close(): Promise<void>;
}

/** Serves the lanes named in `capacity` (lane name -> how many of its files at once) and the board. */
export function coordinator(capacity: Record<string, number>): Promise<Coordinator> {
  const inLane = new Map<string, number>();
  const waiting = new Map<string, http.ServerResponse[]>();
  const board = new Map<string, string>();
  const readers = new Map<string, http.ServerResponse[]>();
  const claimed = new Set<string>();
  const admit = (lane: string) => {
    const queue = waiting.get(lane) ?? [];
    while (queue.length && (inLane.get(lane) ?? 0) < capacity[lane]) {
      const res = queue.shift()!;
      if (res.destroyed) continue;
      inLane.set(lane, (inLane.get(lane) ?? 0) + 1);
      res.once('close', () => {
        inLane.set(lane, inLane.get(lane)! - 1);
        admit(lane);
      });
      res.writeHead(200, { 'content-type': 'text/plain' }).write('go\n');
    }
  };
  const server = http.createServer((req, res) => {
    const [, kind, name] = (req.url ?? '').split('?')[0].split('/');
    if (kind === 'lane' && name in capacity) {
      waiting.set(name, [...(waiting.get(name) ?? []), res]);
      return admit(name);
    }
    if (kind === 'board' && req.method === 'PUT') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      return req.on('end', () => {
        board.set(name, Buffer.concat(chunks).toString('utf8'));
        for (const r of readers.get(name) ?? []) r.end(board.get(name));
        readers.delete(name);
        res.writeHead(204).end();
      });
    }
    if (kind === 'board') {
      if (board.has(name)) return res.end(board.get(name));
      if (req.url?.endsWith('?claim') && !claimed.has(name)) {
        claimed.add(name);
        return res.writeHead(202).end();
      }
      return void readers.set(name, [...(readers.get(name) ?? []), res]);
    }
    res.writeHead(404).end(`no ${req.url}\n`);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve({ url, close: () => new Promise((done) => (server.closeAllConnections(), server.close(() => done()))) });
    });
  });
}

/** A GET without time-outs (a lane's place is held for minutes, a board's value may be long in the making): its status, and its answer to read. */
function get(url: string): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => http.get(url, { agent: false }, resolve).on('error', reject));
}
const text = (res: http.IncomingMessage) => new Promise<string>((resolve, reject) => {
  let s = '';
  res.setEncoding('utf8').on('data', (d: string) => (s += d)).on('end', () => resolve(s)).on('error', reject);
});

/** Waits for a place in `lane`; the returned function gives it back. */
export async function enterLane(url: string, lane: string): Promise<() => void> {
  const res = await get(`${url}/lane/${lane}`);
  if (res.statusCode !== 200) throw new Error(`lane ${lane}: ${res.statusCode} ${await text(res)}`);
  // The answer stays open while the place is held; closing it gives the place back.
  return () => res.destroy();
}

/**
 * The board's value of `key`: made by `make` in the first file that asks (and put for the
 * others), else waited for. A maker that fails puts its error, so the others fail with it.
 */
export async function shared<T>(url: string, key: string, make: () => Promise<T>): Promise<T> {
  const res = await get(`${url}/board/${key}?claim`);
  if (res.statusCode === 202) {
    res.resume();
    let value: { ok: T } | { error: string };
    try {
      value = { ok: await make() };
    } catch (e) {
      value = { error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
    }
    await new Promise<void>((resolve, reject) => {
      const put = http.request(`${url}/board/${key}`, { method: 'PUT', agent: false }, (r) => (r.resume(), resolve()));
      put.on('error', reject).end(JSON.stringify(value));
    });
    if ('error' in value) throw new Error(value.error);
    return value.ok;
  }
  const value = JSON.parse(await text(res)) as { ok: T } | { error: string };
  if ('error' in value) throw new Error(`${key} was made in another file and failed there: ${value.error}`);
  return value.ok;
}
