import { defineCheck, fail, pass } from '../../src/check/check.js';
import { tryParse } from '../../src/core/json.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange } from '../shared/exchange.js';
import { exchangeEvidence, excerpt } from '../shared/evidence.js';

export default defineCheck({
  id: 'messages.response.json',
  title: 'A 200 message and a 400 error on /v1/messages reach the client as JSON',
  requirements: ['MSG-RESP-2'],
  level: 'MUST',
  protocol: 'messages',
  requirement: 'Responses on messages paths are JSON (errors included), never an HTML, login or proxy page.',
  fix: 'Answer JSON on messages paths, errors included. Replace HTML error pages of the proxy with JSON ones (nginx: `error_page` to a named location that returns `{"type":"error",...}` with `default_type application/json`).',
  async run(ctx) {
    const cases: Array<[string, number | null]> = [['success', null], ['error', 400]];
    for (const [name, status] of cases) {
      const x = await exchange(ctx, messagesBody({}), status ? { reply: (c) => c.upstream.next().error(status) } : {});
      const ct = x.res.header('content-type') ?? '';
      const parsed = tryParse(x.res.text());
      if (!/json/i.test(ct) || !parsed.ok) {
        const html = /<html|<!doctype/i.test(x.res.text());
        return fail(`the ${name} response is ${html ? 'an HTML page' : 'not JSON'} (content-type ${ct || 'absent'})`, { expected: 'application/json body', actual: `${x.res.status} ${ct}: ${excerpt(x.res.text(), 200)}`, evidence: exchangeEvidence(x) });
      }
    }
    return pass('the success and the error response were JSON');
  },
});
