import { defineCheck, fail, pass } from '../../src/check/check.js';
import { appsRun, brief, messages, spendDenial } from './common.js';

export default defineCheck({
  id: 'apps.spend.restart',
  title: 'The spent amount survives a gateway restart',
  requirements: ['APP-SPEND-3'],
  level: 'SHOULD',
  area: 'apps',
  profile: 'apps',
  exclusive: true,
  requirement: 'Spend state survives a gateway restart (relational database, 2.7).',
  run: appsRun(async (fx) => {
    if (!fx.restart) return { ok: true, skip: true, message: 'not run: needs --gateway-cmd to restart the gateway (this run checks a gateway it did not start)' };
    const d = await spendDenial(fx);
    if (![402, 403, 429].includes(d.denied.status)) return { ok: true, skip: true, message: `no spend denial to carry over a restart (the request over the cap got ${d.denied.status}; see apps.spend.deny)` };
    await fx.restart();
    const after = await messages(fx, d.token, 'claude-sonnet-4-6');
    if (after.status !== d.denied.status) return fail('after a restart the user over the cap is served again (spend state lost)', { expected: String(d.denied.status), actual: brief(after) });
    return pass(`still ${after.status} after the restart`);
  }),
});
