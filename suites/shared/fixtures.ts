// Fixed request bodies modelled on real client traffic, one folder per protocol under fixtures/.
import { readdirSync } from 'node:fs';
import { readText, rootPath } from '../../src/core/paths.js';
import type { Protocol } from '../../src/core/protocols.js';

/** A fixture folder is named after its protocol. */
export type FixtureFolder = Protocol;

/** Every `.json` fixture of a folder, sorted by name. */
export function fixtureTexts(folder: FixtureFolder): Array<{ name: string; text: string }> {
  return readdirSync(rootPath('fixtures', folder))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ name: f, text: readText('fixtures', folder, f) }));
}

export const fixtureText = (folder: FixtureFolder, name: string) => readText('fixtures', folder, name);
