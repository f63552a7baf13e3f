// Faults of the native (Gemini) stream, streamGenerateContent?alt=sse: the ways a gateway that
// passes JSON answers well still breaks the stream (its query, its timing, its framing, its events).
import type { Fault, RequestParts } from './types.js';
import { isOn } from './routes.js';
import { frameDataOf, HoldAll, isEventStream, PerFrame } from './streaming.js';

const isNativeStream = (r: RequestParts) => isOn(r, 'native', 'stream');
const withType = (headers: Array<[string, string]>, type: string): Array<[string, string]> => [...headers.filter(([k]) => k.toLowerCase() !== 'content-type'), ['content-type', type]];

/**
 * Rewrites an event stream frame by frame as it streams through: `each` gets the data of each
 * complete frame (text up to a blank line) and returns the text to write; `last` what to write at the end.
 */
class Reframe extends PerFrame {
  constructor(each: (data: string) => string, last?: () => string) {
    super((frame) => each(frameDataOf(frame) ?? ''), last);
  }
}

/** A JSON array of the events' payloads, written as they come (what the API answers without alt=sse). */
function asJsonArray(): Reframe {
  let n = 0;
  return new Reframe(
    (d) => `${n++ === 0 ? '[' : ',\r\n'}${d}`,
    () => (n === 0 ? '[]' : ']'),
  );
}

/** The first two events as one block of two data: lines (a re-framer that joins what it read together); the others as they were. */
function mergeFirstTwo(): Reframe {
  let held: string | null = null;
  let n = 0;
  return new Reframe(
    (d) => {
      n++;
      if (n === 1) return (held = d), '';
      if (n === 2) return `data: ${held}\r\ndata: ${d}\r\n\r\n`;
      return `data: ${d}\r\n\r\n`;
    },
    () => (n === 1 ? `data: ${held}\r\n\r\n` : ''),
  );
}

export const NATIVE_FAULTS: Fault[] = [
  {
    name: 'native-drop-alt-sse',
    breaks: ['NAT-STREAM-1'],
    description: 'forwards :streamGenerateContent without its ?alt=sse query (a router that rebuilds the URL from the path alone); the upstream then answers one JSON array',
    request: (r) => {
      if (isNativeStream(r)) r.path = r.path.replace(/([?&])alt=sse(&|$)/, (_, pre: string, post: string) => (post ? pre : '')).replace(/\?$/, '');
    },
  },
  {
    name: 'native-stream-buffered',
    breaks: ['NAT-STREAM-2'],
    description: 'holds the native event stream until the upstream ends it, then writes it whole (response buffering left on for the native route)',
    stream: (r, _s, h) => (isNativeStream(r) && isEventStream(h) ? { headers: h, transform: new HoldAll() } : null),
  },
  {
    name: 'native-stream-as-json-array',
    breaks: ['NAT-STREAM-3'],
    description: 'answers the client a JSON array of the native stream\'s payloads (content-type application/json) instead of the event stream, written as it comes',
    stream: (r, _s, h) => (isNativeStream(r) && isEventStream(h) ? { headers: withType(h, 'application/json; charset=UTF-8'), transform: asJsonArray() } : null),
  },
  {
    name: 'native-stream-merge-events',
    breaks: ['NAT-STREAM-3'],
    description: 'writes the first two events of a native stream as one block of two data: lines',
    stream: (r, _s, h) => (isNativeStream(r) && isEventStream(h) ? { headers: h, transform: mergeFirstTwo() } : null),
  },
  {
    name: 'native-stream-adds-done',
    breaks: ['NAT-STREAM-4'],
    description: 'ends every native stream with data: [DONE] (the Chat Completions terminator, added by a gateway that frames every stream alike)',
    stream: (r, _s, h) => (isNativeStream(r) && isEventStream(h) ? { headers: h, transform: new Reframe((d) => `data: ${d}\r\n\r\n`, () => 'data: [DONE]\r\n\r\n') } : null),
  },
];
