import { defineCheck } from '../../src/core/check.js';
import { readText, rootPath } from '../../src/core/paths.js';
import { readdirSync } from 'node:fs';
import { fixturesAndProperty } from '../messages/common.js';
import { judgeSemantic } from '../messages/messages.body.semantic.js';
import { nativeBody } from './gen.js';
import { nativeSend } from './common.js';

/** Fixed native bodies modelled on real client traffic (fixtures/native/*.json). */
export function nativeFixtures(): Array<{ name: string; text: string }> {
  return readdirSync(rootPath('fixtures', 'native'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ name: f, text: readText('fixtures', 'native', f) }));
}

export default defineCheck({
  id: 'native.body.semantic',
  title: 'Generated and real-looking native bodies (contents, parts, generationConfig, unknown fields) arrive with the same JSON content',
  requirements: ['NAT-BODY-1'],
  level: 'MUST',
  area: 'native',
  profile: 'core',
  protocol: 'native',
  requirement: 'A native request body reaches the upstream unchanged: contents with their role, parts and text, generationConfig, systemInstruction, tools and every field the gateway does not know, with key order, values (numbers compared exactly) and array order kept (spec 2.3).',
  async run(ctx) {
    return fixturesAndProperty(ctx, nativeFixtures(), judgeSemantic, 'semantic equality of native bodies', { bodies: nativeBody, send: nativeSend() });
  },
});
