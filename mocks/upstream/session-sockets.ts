// Session mode's WebSocket side, for the client profile's socket clients (the openai SDK's
// Realtime client, @google/genai's Live client): an upgrade on a socket route is taken without a
// case token (the run is the session), answered in the route's own frames (src/protocols/*/socket.ts)
// with the session's text in its pieces, sent SESSION_GAP_MS apart, and the ids the route draws
// renumbered for the run, so both runs get the same frames. The upgrade and every message both
// ways are kept as one request of the run's record: method GET, the URL as it came (a `key=`
// query among it, masked by the reports as every request's), status 101, the body the messages
// in order (JSON: direction, binary or text, the text), recorded once the socket has closed.
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { WebSocketServer, type WebSocket } from 'ws';
import { socketRouteOf } from '../../src/protocols/index.js';
import { SESSION_GAP_MS, sessionDeltas } from '../../src/real-clients/script.js';
import type { UpstreamRequest } from '../../src/real-clients/types.js';
import { bytesOf } from './socket.js';

/** The run's record as the sockets feed it (SessionCapture). */
export interface SessionRecord {
  /** A request began (settled() waits for it). */
  began(): void;
  /** It ended: its line. */
  ended(r: Omit<UpstreamRequest, 'seq'>): void;
  /** The headers as the record keeps them (masked, a swapped credential marked, per-connection values named). */
  headers(raw: Array<[string, string]>): Array<[string, string]>;
}

export class SessionSockets {
  private wss = new WebSocketServer({ noServer: true, perMessageDeflate: true });
  private readonly ids = new Map<string, string>();
  private live = new Set<WebSocket>();

  constructor(private readonly rec: SessionRecord) {}

  /** The route's ids (`event_gwc00000a`), numbered from 1 in this run, in order of appearance. */
  private renumbered(text: string): string {
    return text.replace(/_gwc([0-9a-z]{6})/g, (_m, n: string) => `_gwc${this.ids.get(n) ?? (this.ids.set(n, (this.ids.size + 1).toString(36).padStart(6, '0')), this.ids.get(n))}`);
  }

  /** Takes an upgrade on a socket route; false when the path is none (the caller answers it). */
  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer, url: string): boolean {
    const at = socketRouteOf(url);
    if (!at) return false;
    socket.on('error', () => socket.destroy());
    const raw: Array<[string, string]> = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) raw.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
    const receivedAt = performance.now();
    this.rec.began();
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.live.add(ws);
      const messages: Array<{ dir: 'in' | 'out'; binary: boolean; text: string }> = [];
      let queue = Promise.resolve();
      const send = (text: string, gapMs: number) => {
        queue = queue.then(async () => {
          // The session's scripted gap between the answer's frames, as its HTTP streams have.
          if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
          if (ws.readyState !== ws.OPEN) return;
          const out = this.renumbered(text);
          messages.push({ dir: 'out', binary: at.route.serverBinary, text: out });
          ws.send(Buffer.from(out), { binary: at.route.serverBinary });
        });
      };
      for (const g of at.route.greeting()) send(g, 0);
      ws.on('message', (data, binary) => {
        const text = bytesOf(data).toString('utf8');
        messages.push({ dir: 'in', binary, text });
        at.route.answer(text, sessionDeltas()).forEach((f, i) => send(f, i === 0 ? 0 : SESSION_GAP_MS));
      });
      ws.on('close', () => {
        this.live.delete(ws);
        this.rec.ended({ method: req.method ?? 'GET', url, headers: this.rec.headers(raw), body: Buffer.from(JSON.stringify(messages)).toString('base64'), receivedAt, status: 101, ended: 'answered', durationMs: Math.round(performance.now() - receivedAt) });
      });
    });
    return true;
  }

  /** Ends every socket (the upstream stops). */
  stop(): void {
    for (const ws of this.live) ws.terminate();
    this.live.clear();
  }
}
