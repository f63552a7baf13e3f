// Feeds text through a reference-gateway stream fault in chunks of `size` bytes (to split
// multi-byte characters and frames at every place) and returns what comes out.
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { faultByName, type RequestParts } from '../../reference/faults/index.js';

export const parts = (path: string, body = '{}'): RequestParts => ({ method: 'POST', path, headers: [], body: Buffer.from(body) });

export async function throughStream(fault: string, path: string, text: string, size: number, contentType = 'text/event-stream'): Promise<string> {
  const s = faultByName(fault)!.stream!(parts(path), 200, [['content-type', contentType]]);
  if (!s) throw new Error('the fault does not transform this stream');
  const bytes = Buffer.from(text);
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size));
  const out: Buffer[] = [];
  await pipeline(Readable.from(pieces), s.transform, new Writable({ write: (c, _e, cb) => (out.push(c), cb()) }));
  return Buffer.concat(out).toString('utf8');
}
