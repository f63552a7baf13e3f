import { defineCheck } from '../../src/check/check.js';
import { generatedNativeRequest } from './gen.js';
import { fixtureTexts } from '../shared/fixtures.js';
import { fixturesAndProperty, judgeSemantic, PROPERTY_TIME_LIMIT } from '../shared/property.js';
import { nativeSend } from '../shared/exchange.js';

export default defineCheck({
  id: 'native.body.semantic',
  title: 'Generated and real-looking native bodies (contents, parts, generationConfig, unknown fields) arrive with the same JSON content',
  requirements: ['NAT-BODY-1'],
  timeLimitMs: PROPERTY_TIME_LIMIT,
  level: 'MUST',
  untranslatable: 'the body\'s keys, values and order',
  protocol: 'native',
  requirement: 'A native request body, sent to generateContent or to streamGenerateContent, reaches the upstream unchanged: contents with their role, parts and text, generationConfig, systemInstruction, tools and every field the gateway does not know, with key order, values (numbers compared exactly) and array order kept.',
  fix: 'Forward native bodies unchanged: contents, parts, `generationConfig`, `systemInstruction`, tools and unknown fields, in order and with exact numbers.',
  async run(ctx) {
    return fixturesAndProperty(ctx, fixtureTexts('native'), judgeSemantic, 'semantic equality of native bodies', { bodies: generatedNativeRequest, send: nativeSend() });
  },
});
