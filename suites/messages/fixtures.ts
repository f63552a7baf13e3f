import { readdirSync } from 'node:fs';
import { readText, rootPath } from '../../src/core/paths.js';

/** Fixed request bodies modelled on real Claude Code traffic (fixtures/messages/*.json). */
export function messageFixtures(): Array<{ name: string; text: string }> {
  return readdirSync(rootPath('fixtures', 'messages'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ name: f, text: readText('fixtures', 'messages', f) }));
}

export const fixture = (name: string) => readText('fixtures', 'messages', name);
