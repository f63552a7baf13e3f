// The native stream (streamGenerateContent): how the upstream answers with and without alt=sse,
// and what each native stream fault of the reference gateway does to the bytes it passes on.
import { Transform } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { RECORDS } from '../../../src/protocols/index.js';
import { nativeFrames, nativeStream } from '../../../src/protocols/native/index.js';
import { realisticReply } from '../../../mocks/upstream/capture.js';
import { faultByName } from '../../../reference/faults/index.js';
import { parts, throughStream } from '../../helpers/stream-fault.js';
import type { RecordedRequest } from '../../../src/upstream/record.js';

const PATH = '/v1beta/models/gemini-2.5-flash:streamGenerateContent';
const payloads = nativeStream({ pieces: ['Hel', 'lo é😀'] });
const sse = nativeFrames(payloads).map((f) => f.data).join('');

describe('the upstream answers the stream route as the API does', () => {
  it('with alt=sse: server-sent events (no rewriting); without it: one JSON array of the same payloads, written frame by frame', () => {
    const frames = nativeFrames(payloads).map((f) => f.data);
    expect(RECORDS.native.unframedStream!(`${PATH}?alt=sse`, frames)).toBeNull();
    expect(RECORDS.native.unframedStream!(`${PATH}?key=k&alt=sse`, frames)).toBeNull();
    const plain = RECORDS.native.unframedStream!(PATH, frames)!;
    expect(plain.texts).toHaveLength(frames.length);
    expect(plain.headers.find(([k]) => k === 'content-type')?.[1]).toMatch(/^application\/json/);
    expect(JSON.parse(plain.texts.join(''))).toEqual(payloads.map((p) => JSON.parse(p)));
  });

  it('capture mode: a native stream without alt=sse is a JSON array, with it an event stream', () => {
    const rec = (url: string) => ({ method: 'POST', url, rawHeaders: [], body: Buffer.from('{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}') }) as unknown as RecordedRequest;
    const withSse = realisticReply(rec(`${PATH}?alt=sse`), undefined);
    const without = realisticReply(rec(PATH), undefined);
    if (withSse.kind !== 'sse' || without.kind !== 'sse') throw new Error('expected streamed replies');
    expect(withSse.headers.find(([k]) => k === 'content-type')?.[1]).toBe('text/event-stream');
    expect(withSse.frames.every((f) => /^data: \{/.test(f.data))).toBe(true);
    const array = JSON.parse(without.frames.map((f) => f.data).join(''));
    expect(Array.isArray(array) && array.length).toBe(withSse.frames.length);
  });
});

describe('native stream faults of the reference gateway', () => {
  it('native-drop-alt-sse removes alt=sse and keeps the other parameters', () => {
    for (const [path, want] of [
      [`${PATH}?alt=sse`, PATH],
      [`${PATH}?alt=sse&key=k`, `${PATH}?key=k`],
      [`${PATH}?key=k&alt=sse`, `${PATH}?key=k`],
    ]) {
      const p = parts(path);
      faultByName('native-drop-alt-sse')!.request!(p);
      expect(p.path).toBe(want);
    }
    const p = parts('/v1beta/models/m:generateContent?alt=sse');
    faultByName('native-drop-alt-sse')!.request!(p);
    expect(p.path).toBe('/v1beta/models/m:generateContent?alt=sse');
  });

  it('native-stream-as-json-array turns the frames (split every 7 bytes) into one JSON array of the payloads, typed application/json', async () => {
    const s = faultByName('native-stream-as-json-array')!.stream!(parts(`${PATH}?alt=sse`), 200, [['content-type', 'text/event-stream']])!;
    expect(s.headers).toContainEqual(['content-type', 'application/json; charset=UTF-8']);
    const out = await throughStream('native-stream-as-json-array', `${PATH}?alt=sse`, sse, 7);
    expect(JSON.parse(out)).toEqual(payloads.map((p) => JSON.parse(p)));
  });

  it('native-stream-merge-events writes the first two events as one block of two data: lines, the rest as they were', async () => {
    const three = nativeStream({ pieces: ['a', 'b', 'c'] });
    const out = await throughStream('native-stream-merge-events', `${PATH}?alt=sse`, nativeFrames(three).map((f) => f.data).join(''), 5);
    expect(out.split('\r\n\r\n').filter(Boolean)).toEqual([`data: ${three[0]}\r\ndata: ${three[1]}`, `data: ${three[2]}`]);
  });

  it('native-stream-adds-done passes every frame and ends with data: [DONE]', async () => {
    const out = await throughStream('native-stream-adds-done', `${PATH}?alt=sse`, sse, 7);
    expect(out).toBe(`${sse}data: [DONE]\r\n\r\n`);
  });

  it('native-stream-buffered writes nothing until the upstream ends, then all of it', async () => {
    const s = faultByName('native-stream-buffered')!.stream!(parts(`${PATH}?alt=sse`), 200, [['content-type', 'text/event-stream']])!;
    const t: Transform = s.transform;
    const out: Buffer[] = [];
    t.on('data', (c: Buffer) => out.push(c));
    await new Promise<void>((r) => t.write(Buffer.from(sse), () => r()));
    expect(out).toEqual([]);
    await new Promise<void>((r) => t.end(r));
    expect(Buffer.concat(out).toString('utf8')).toBe(sse);
  });

  it('each leaves the other protocols\' streams and the JSON route alone', () => {
    for (const name of ['native-stream-as-json-array', 'native-stream-merge-events', 'native-stream-adds-done', 'native-stream-buffered']) {
      const s = faultByName(name)!.stream!;
      expect(s(parts('/v1/chat/completions'), 200, [['content-type', 'text/event-stream']]), name).toBeNull();
      expect(s(parts(`${PATH}?alt=sse`), 200, [['content-type', 'application/json']]), name).toBeNull();
    }
  });
});
