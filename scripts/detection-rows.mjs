// The default detection matrix's rows as one table (test/detection/*.json but the apps and load
// profiles' files), and the file a row is written to. A fault's rows live in its home file (the
// one holding them, else the file of its area: test/detection/<area>.json for
// reference/faults/<area>.ts); besides, the rows of a protocol's own checks (suites/<name>/ and
// its capability matrix, capabilities.<name>) may live in that protocol's file,
// test/detection/<name>.json. The rule for writing (placeRow): a row stays in the file that
// holds it; a new row of a protocol's own check goes to that protocol's file when it exists, every
// other one to the fault's home. So a fault of another area that breaks a new protocol's checks
// (html-errors, buffer-stream, strip-images) gains their rows in the new protocol's own file.
// Read by test/helpers/detection-matrix.ts (the matrix) and scripts/detection.mjs (the writer).
import { readdirSync, readFileSync } from 'node:fs';

/** The files of the other matrices: the apps profile's (test/apps/apps-detection.test.ts) and the load profile's (test/load/load-detection.test.ts). */
export const OTHER_MATRICES = ['apps.json', 'load.json'];

/** The protocol whose own check `id` is (`chat.path.preserved`, `capabilities.chat`: chat), or null. */
export function ownProtocol(id, protocols) {
  const [first, second] = id.split('.');
  const name = first === 'capabilities' ? second : first;
  return protocols.includes(name) ? name : null;
}

/** The protocol `file` is the own file of (`chat.json`: chat), or null. */
const protocolOfFile = (file, protocols) => (protocols.includes(file.replace(/\.json$/, '')) ? file.replace(/\.json$/, '') : null);

/** Whether the rows `ids` of a fault in `file` may sit beside its home: file is a protocol's own, and each id one of its own checks. */
const protocolPart = (file, ids, protocols) => {
  const p = protocolOfFile(file, protocols);
  return p !== null && ids.every((id) => ownProtocol(id, protocols) === p);
};

/**
 * Every row of the default matrix's files in `dir` (a URL of test/detection/), each fault's rows
 * merged from the files that hold them; `placed` says which file holds each (fault, check), `home`
 * each fault's home file (null when it is only in protocols' own files). Throws, naming the files,
 * when one check's row of one fault is in two files, when a fault's rows are in two files of which
 * neither is a protocol's own holding only that protocol's checks, or a fault has flags in two files.
 */
export function readMatrix(dir, protocols) {
  const faults = {};
  const flags = {};
  const placed = {};
  const files = {};
  const flagFile = {};
  for (const file of readdirSync(dir).filter((n) => n.endsWith('.json') && !OTHER_MATRICES.includes(n)).sort()) {
    const part = JSON.parse(readFileSync(new URL(file, dir), 'utf8'));
    for (const [fault, f] of Object.entries(part.flags ?? {})) {
      if (flagFile[fault]) throw new Error(`fault ${fault} has flags in two files, test/detection/${flagFile[fault]} and test/detection/${file}: its flags go in its home file only`);
      flagFile[fault] = file;
      flags[fault] = f;
    }
    for (const [fault, row] of Object.entries(part.faults ?? {})) {
      faults[fault] ??= {};
      placed[fault] ??= {};
      (files[fault] ??= []).push(file);
      for (const [id, outcome] of Object.entries(row)) {
        if (placed[fault][id]) throw new Error(`fault ${fault}: the row of ${id} is in two files, test/detection/${placed[fault][id]} and test/detection/${file}: keep one`);
        placed[fault][id] = file;
        faults[fault][id] = outcome;
      }
    }
  }
  const home = {};
  for (const [fault, held] of Object.entries(files)) {
    const homes = held.filter((file) => !protocolPart(file, Object.keys(placed[fault]).filter((id) => placed[fault][id] === file), protocols));
    if (homes.length > 1) throw new Error(`fault ${fault} has rows in ${homes.map((f) => `test/detection/${f}`).join(' and ')}: beside its home file, a fault's rows may be only in a protocol's own file, for that protocol's own checks`);
    home[fault] = homes[0] ?? (held.length === 1 ? held[0] : null);
  }
  return { faults, flags, placed, home, files };
}

/**
 * The file the row of check `id` of `fault` is written to: the file that holds it, else the
 * protocol's own file when `id` is a protocol's own check and `exists(file)`, else `home`.
 */
export function placeRow(matrix, fault, id, home, protocols, exists) {
  const held = matrix.placed[fault]?.[id];
  if (held) return held;
  const p = ownProtocol(id, protocols);
  return p && exists(`${p}.json`) ? `${p}.json` : home;
}

/**
 * A fault's observed row split by file: file -> its part of the row. Every file that holds the
 * fault now is in it (an emptied part is a row the fault lost), and so is `home`.
 */
export function splitRow(matrix, fault, row, home, protocols, exists) {
  const parts = { [home]: {} };
  for (const file of matrix.files[fault] ?? []) parts[file] = {};
  for (const [id, outcome] of Object.entries(row)) (parts[placeRow(matrix, fault, id, home, protocols, exists)] ??= {})[id] = outcome;
  return parts;
}
