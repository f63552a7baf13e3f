import { defineCheck, fail, pass } from '../../src/check/check.js';
import { at, toPlain } from '../../src/core/json.js';
import { ATTRIBUTION } from './gen.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange, notForwarded, parseSeen } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { plural } from '../../src/core/words.js';

type Block = { type?: string; text?: string };
const SENT: Block[] = [
  { type: 'text', text: ATTRIBUTION },
  { type: 'text', text: 'You are Claude Code, an interactive CLI tool.' },
];

/** Text of the system field as the upstream saw it, whatever its form. */
function systemText(v: unknown): string {
  if (typeof v === 'string') return v;
  return Array.isArray(v) ? (v as Block[]).map((b) => b?.text ?? '').join('\n') : '';
}

export default defineCheck({
  id: 'messages.system.no-prepend',
  title: 'A system array whose first block is the attribution block gets no block inserted',
  requirements: ['MSG-SYS-2'],
  level: 'MUST',
  untranslatable: 'the body\'s `system` field',
  protocol: 'messages',
  requirement: 'No block or text is prepended or inserted into system; the attribution block stays first.',
  fix: 'Do not inject a system prompt of your own. If a policy requires one, put it after the client\'s first block, never before the attribution block.',
  async run(ctx) {
    for (const system of [SENT, 'You are a plain string system prompt.'] as const) {
      const x = await exchange(ctx, messagesBody({ system }));
      if (!x.seen) return notForwarded(x);
      const seen = parseSeen(x);
      const got = seen ? toPlain(at(seen, '/system') ?? { t: 'null' }) : undefined;
      const ev = exchangeEvidence(x);
      if (Array.isArray(system) && Array.isArray(got)) {
        if (got.length > system.length) return fail(`${plural(got.length - system.length, 'block')} inserted into system`, { expected: `${system.length} blocks, the attribution block first`, actual: JSON.stringify(got), evidence: ev });
        if ((got[0] as Block)?.text !== ATTRIBUTION) return fail('the attribution block is no longer first', { expected: ATTRIBUTION, actual: JSON.stringify(got[0]), evidence: ev });
        continue;
      }
      // A changed form is MSG-SYS-1's concern; here only inserted text counts.
      const want = systemText(system);
      const have = systemText(got);
      if (have.length > want.length && have.endsWith(want)) return fail('text was prepended to system', { expected: want, actual: have, evidence: ev });
      if (!have.startsWith(want.split('\n')[0])) return fail('system no longer starts with what the client sent', { expected: want, actual: have, evidence: ev });
    }
    return pass('nothing was inserted into system; the attribution block stayed first');
  },
});
