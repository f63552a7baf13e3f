// A server's keep-alive time-out, scoped to one case (a reply's closeIdleMs): once the answer is
// written, the connection that carried it is closed when it has stayed idle that long, and the
// record notes when (idleClosedAt), so a check can wait on the close as an event. The timer here
// is the scenario (how long the upstream keeps an idle connection), not synchronisation.
import type http from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { RecordedRequest } from '../../src/upstream/record.js';

/** The idle timers of the connections now waiting, by socket: a new request on one stops its timer. */
const pending = new WeakMap<Socket, NodeJS.Timeout>();

/** A request arrived on `socket`: it is not idle, whatever timer it had is stopped. */
export function busy(socket: Socket): void {
  const t = pending.get(socket);
  if (t) clearTimeout(t);
  pending.delete(socket);
}

/** Closes the HTTP/1.1 connection of `res` once it has been idle `ms` after the answer; `closed` is told when it did. */
export function closeWhenIdle(res: http.ServerResponse, rec: RecordedRequest, ms: number, closed: () => void): void {
  const socket = res.req?.socket;
  // Over HTTP/2 the connection is a session of many streams: this scenario is HTTP/1.1's.
  if (!socket || res.req.httpVersionMajor !== 1) return;
  res.once('finish', () => {
    if (socket.destroyed) return;
    busy(socket);
    socket.once('close', () => busy(socket));
    pending.set(
      socket,
      setTimeout(() => {
        pending.delete(socket);
        socket.once('close', () => {
          rec.idleClosedAt = performance.now();
          closed();
        });
        socket.destroy();
      }, ms),
    );
  });
}
