// A server's keep-alive time-out, scoped to one case (a reply's closeIdleMs): once the answer is
// written, the connection that carried it is closed when it has stayed idle that long. The record
// says how the connection's idle spell ended (idleClose): closed by the upstream's time-out, closed
// by the gateway first, or reused by the gateway for another request; a check waits on that as an
// event. The timer here is the scenario (how long the upstream keeps an idle connection), not
// synchronisation.
import type http from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { RecordedRequest } from '../../src/upstream/record.js';

interface Watch {
  timer: NodeJS.Timeout;
  /** Ends the watch: how the idle spell ended. */
  end(by: NonNullable<RecordedRequest['idleClose']>['by']): void;
}

/** The connections now idle after a case's answer, by socket. */
const watched = new WeakMap<Socket, Watch>();

/** A request arrived on `socket`: if it was being watched, the gateway reused it before the upstream's time-out. */
export function busy(socket: Socket): void {
  watched.get(socket)?.end('reused');
}

/** Closes the HTTP/1.1 connection of `res` once it has been idle `ms` after the answer; `ended` is told how its idle spell ended. */
export function closeWhenIdle(res: http.ServerResponse, rec: RecordedRequest, ms: number, ended: () => void): void {
  const socket = res.req?.socket;
  // Over HTTP/2 the connection is a session of many streams: this scenario is HTTP/1.1's.
  if (!socket || res.req.httpVersionMajor !== 1) {
    rec.idleClose = { at: performance.now(), by: 'http2' };
    ended();
    return;
  }
  res.once('finish', () => {
    busy(socket);
    let byUpstream = false;
    const onClose = () => watch.end(byUpstream ? 'upstream' : 'gateway');
    const watch: Watch = {
      timer: setTimeout(() => {
        byUpstream = true;
        socket.destroy();
      }, ms),
      end(by) {
        clearTimeout(watch.timer);
        socket.off('close', onClose);
        watched.delete(socket);
        rec.idleClose = { at: performance.now(), by };
        ended();
      },
    };
    watched.set(socket, watch);
    if (socket.destroyed) watch.end('gateway');
    else socket.once('close', onClose);
  });
}
