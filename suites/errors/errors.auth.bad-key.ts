import { defineCheck, fail, pass } from '../../src/check/check.js';
import { ERROR_MESSAGES } from '../../src/protocols/messages/index.js';
import { messagesBody } from '../shared/protocols.js';
import { exchange } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { substitutedKey } from '../shared/bad-key.js';
import { BAD_CREDENTIAL, describeShape, errorFields, shapeOf } from '../shared/shape.js';

export default defineCheck({
  id: 'errors.auth.bad-key',
  title: 'A messages request with a bad x-api-key, and one with a bad bearer token, gets HTTP 401 with a JSON error',
  requirements: ['ERR-AUTH-1'],
  level: 'MUST',
  protocol: 'messages',
  requirement:
    'A bad key gets HTTP 401 with a JSON error body, whether the gateway refuses it itself or the upstream does (the upstream here answers 401 authentication_error as the real API does). A gateway that forwards the request under another credential has accepted the bad key (ERR-AUTH-1 as it applies to the messages protocol); one run with --no-token takes no client credential, and its own key in the request is reported, not failed.',
  fix: 'Answer a bad key with HTTP 401 and a JSON error (or forward the upstream\'s 401). Never forward the request under another credential, which accepts the bad key.',
  async run(ctx) {
    const cases: Array<[string, Array<[string, string]>]> = [
      ['x-api-key', [['x-api-key', BAD_CREDENTIAL]]],
      ['bearer', [['authorization', `Bearer ${BAD_CREDENTIAL}`]]],
    ];
    const got: string[] = [];
    for (const [style, headers] of cases) {
      const x = await exchange(ctx, messagesBody({}), { auth: 'none', headers, reply: (c) => c.upstream.next().error(401, { message: ERROR_MESSAGES[401] }) });
      const evidence = exchangeEvidence(x, 600);
      const substituted = substitutedKey(ctx, x.seen, BAD_CREDENTIAL, `a bad ${style}`, evidence);
      if (substituted) return substituted;
      const shape = shapeOf(x.res);
      if (x.res.status !== 401 || !shape.json || !errorFields(shape.parsed))
        return fail(`a bad ${style} got ${describeShape(shape, x.res.text())}`, { expected: '401 with a JSON error body', actual: describeShape(shape, x.res.text()), evidence });
      got.push(`${style}: 401 JSON (${x.seen ? 'refused by the upstream' : 'refused by the gateway'})`);
    }
    return pass(`bad keys were refused with a JSON 401 (${got.join('; ')})`);
  },
});
