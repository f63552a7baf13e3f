// Faults of the A2A endpoint and its agent card: what gateways in front of agents are reported to
// do (the endpoint's path changed, a stream buffered to the end, only the endpoint routed so the card is a 404, a relay that
// closes the stream at the artifact's last chunk, before the task's final status).
import { Transform, type TransformCallback } from 'node:stream';
import { A2A_PATH } from '../../src/protocols/a2a/index.js';
import type { Fault, RequestParts } from './types.js';
import { answer, isOn } from './routes.js';
import { HoldAll, isEventStream } from './streaming.js';

const pathOf = (r: RequestParts) => r.path.split('?')[0];
const isEndpoint = (r: RequestParts) => isOn(r, 'a2a', 'rpc') && pathOf(r) === A2A_PATH;
const isCard = (r: RequestParts) => isOn(r, 'a2a', 'rpc') && pathOf(r).startsWith('/.well-known/');

/** Passes a stream's events until the one marked `"final":true`, which it drops with the rest (a relay that ends at the last artifact chunk). */
class DropFinal extends Transform {
  private rest = '';
  private done = false;
  _transform(c: Buffer, _e: BufferEncoding, cb: TransformCallback) {
    if (this.done) return cb();
    const text = this.rest + c.toString('utf8');
    const frames = text.split('\n\n');
    this.rest = frames.pop() ?? '';
    const out: string[] = [];
    for (const f of frames) {
      if (/"final"\s*:\s*true/.test(f)) {
        this.done = true;
        break;
      }
      out.push(`${f}\n\n`);
    }
    cb(null, out.join(''));
  }
  _flush(cb: TransformCallback) {
    cb(null, this.done ? '' : this.rest);
  }
}

export const A2A_FAULTS: Fault[] = [
  {
    name: 'a2a-path-slash',
    breaks: ['AGENT-PATH-1'],
    description: 'forwards the endpoint /a2a to /a2a/ (a location that adds a trailing slash)',
    request: (r) => void (isEndpoint(r) && (r.path = r.path.replace(/^\/a2a(?=\?|$)/, '/a2a/'))),
  },
  {
    name: 'a2a-buffer-stream',
    breaks: ['AGENT-STREAM-1'],
    description: 'holds the event stream answering message/stream until the agent ends it, then sends it whole',
    stream: (r, _status, headers) => (isEndpoint(r) && isEventStream(headers) ? { headers, transform: new HoldAll() } : null),
  },
  {
    name: 'a2a-no-card',
    breaks: ['AGENT-CARD-1'],
    description: 'answers the agent card route (/.well-known/agent-card.json) 404 itself: only the endpoint is routed',
    intercept: (r, res) => isCard(r) && answer(res, 404, 'application/json', '{"error":"not_found"}'),
  },
  {
    name: 'a2a-drop-final',
    breaks: ['AGENT-STREAM-2'],
    description: "ends message/stream's event stream before the task's final status update (a relay that stops at the artifact's last chunk)",
    stream: (r, _status, headers) => (isEndpoint(r) && isEventStream(headers) ? { headers: headers.filter(([k]) => k.toLowerCase() !== 'content-length'), transform: new DropFinal() } : null),
  },
];
