import { defineCheck } from '../../src/check/check.js';
import { judgeSemantic, PROPERTY_TIME_LIMIT } from '../shared/property.js';
import { messagesBodyProperty } from './common.js';

export default defineCheck({
  id: 'messages.body.semantic',
  title: 'Generated and real-looking messages bodies arrive with the same JSON content',
  requirements: ['MSG-BODY-1'],
  timeLimitMs: PROPERTY_TIME_LIMIT,
  level: 'MUST',
  untranslatable: 'the body\'s keys, values and order',
  protocol: 'messages',
  requirement: 'The request body reaches the upstream semantically unchanged: keys, key order, values (numbers compared exactly), array order and length.',
  fix: 'Forward the body without parsing and re-encoding it, or use a JSON library that keeps key order, unknown keys and numbers exactly (no float rounding of large integers). Never drop or default fields.',
  async run(ctx) {
    return messagesBodyProperty(ctx, judgeSemantic, 'semantic equality');
  },
});
