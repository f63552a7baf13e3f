// The detection matrix's files read as one table and the file each row is written to
// (scripts/detection-rows.mjs): a fault's rows merged from its home file and protocols' own files,
// a row given twice or a second home refused, and a new row of a protocol's own check written to
// that protocol's file (so a new protocol's rows land in its own new file).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ownProtocol, placeRow, readMatrix, splitRow } from '../../../scripts/detection-rows.mjs';

const PROTOCOLS = ['messages', 'chat', 'dummy'];

/** A test/detection/ of these files (name -> content); its URL. */
function detectionDir(files: Record<string, unknown>): URL {
  const dir = mkdtempSync(join(tmpdir(), 'gwc-rows-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), JSON.stringify(content));
  return pathToFileURL(`${dir}/`);
}

describe('the detection rows of every file, merged', () => {
  it("a fault's row is its home file's part and its protocols' files' parts; the other matrices' files are left out", () => {
    const dir = detectionDir({
      'errors.json': { description: 'd', flags: { 'html-errors': { strict: true } }, faults: { 'html-errors': { 'errors.passthrough.status': 'fail', 'messages.response.json': 'fail' } } },
      'chat.json': { description: 'd', faults: { 'html-errors': { 'chat.errors.passthrough': 'fail', 'capabilities.chat': 'info' }, 'chat-own': {} } },
      'load.json': { description: 'd', faults: { 'html-errors': { 'load.x': 'fail' } } },
    });
    const m = readMatrix(dir, PROTOCOLS);
    expect(m.faults).toEqual({ 'html-errors': { 'errors.passthrough.status': 'fail', 'messages.response.json': 'fail', 'chat.errors.passthrough': 'fail', 'capabilities.chat': 'info' }, 'chat-own': {} });
    expect(m.flags).toEqual({ 'html-errors': { strict: true } });
    expect(m.home).toEqual({ 'html-errors': 'errors.json', 'chat-own': 'chat.json' });
    expect(m.placed['html-errors']['capabilities.chat']).toBe('chat.json');
  });

  it('one check of one fault in two files is an error naming both', () => {
    const dir = detectionDir({
      'errors.json': { faults: { f: { 'chat.errors.passthrough': 'fail' } } },
      'chat.json': { faults: { f: { 'chat.errors.passthrough': 'fail' } } },
    });
    expect(() => readMatrix(dir, PROTOCOLS)).toThrow('fault f: the row of chat.errors.passthrough is in two files, test/detection/chat.json and test/detection/errors.json: keep one');
  });

  it("a fault's rows in two files neither of which is a protocol's own file holding its own checks are an error; so are flags in two files", () => {
    const other = detectionDir({ 'errors.json': { faults: { f: { 'errors.a': 'fail' } } }, 'cache.json': { faults: { f: { 'cache.b': 'fail' } } } });
    expect(() => readMatrix(other, PROTOCOLS)).toThrow(/^fault f has rows in test\/detection\/cache\.json and test\/detection\/errors\.json: beside its home file/);
    // chat.json holding a messages check of a fault of errors.json is not chat's own part.
    const foreign = detectionDir({ 'errors.json': { faults: { f: { 'errors.a': 'fail' } } }, 'chat.json': { faults: { f: { 'messages.b': 'fail' } } } });
    expect(() => readMatrix(foreign, PROTOCOLS)).toThrow(/^fault f has rows in test\/detection\/chat\.json and test\/detection\/errors\.json/);
    const flags = detectionDir({ 'errors.json': { flags: { f: {} }, faults: { f: {} } }, 'chat.json': { flags: { f: {} }, faults: {} } });
    expect(() => readMatrix(flags, PROTOCOLS)).toThrow('fault f has flags in two files, test/detection/chat.json and test/detection/errors.json: its flags go in its home file only');
  });
});

describe('where a row is written', () => {
  const dir = detectionDir({
    'errors.json': { faults: { f: { 'errors.a': 'fail', 'messages.kept': 'fail' } } },
    'messages.json': { faults: { g: { 'messages.own': 'fail' } } },
    'chat.json': { faults: { f: { 'chat.gone': 'fail' } } },
  });
  const m = readMatrix(dir, PROTOCOLS);
  const files = new Set(['errors.json', 'messages.json', 'chat.json', 'dummy.json']);
  const exists = (f: string) => files.has(f);

  it("a protocol's own checks: its folder's and its capability matrix", () => {
    expect(['messages.x.y', 'capabilities.dummy', 'capabilities', 'errors.messages', 'streaming.chat.x'].map((id) => ownProtocol(id, PROTOCOLS))).toEqual(['messages', 'dummy', null, null, null]);
  });

  it("a row stays where it is; a new one of a protocol's own check goes to that protocol's file when it exists, any other to the home", () => {
    expect(placeRow(m, 'f', 'messages.kept', 'errors.json', PROTOCOLS, exists)).toBe('errors.json');
    expect(placeRow(m, 'f', 'messages.new', 'errors.json', PROTOCOLS, exists)).toBe('messages.json');
    expect(placeRow(m, 'f', 'capabilities.dummy', 'errors.json', PROTOCOLS, exists)).toBe('dummy.json');
    expect(placeRow(m, 'f', 'dummy.path.preserved', 'errors.json', PROTOCOLS, () => false)).toBe('errors.json');
    expect(placeRow(m, 'f', 'errors.b', 'errors.json', PROTOCOLS, exists)).toBe('errors.json');
  });

  it("a fault's observed row split by file: the home and every file that held a part (emptied where it lost them)", () => {
    expect(splitRow(m, 'f', { 'errors.a': 'fail', 'messages.kept': 'warn', 'dummy.path.preserved': 'fail' }, 'errors.json', PROTOCOLS, exists)).toEqual({
      'errors.json': { 'errors.a': 'fail', 'messages.kept': 'warn' },
      'chat.json': {},
      'dummy.json': { 'dummy.path.preserved': 'fail' },
    });
  });
});
