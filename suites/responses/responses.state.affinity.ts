// RESP-STATE-2: a Responses API request that continues an earlier one (its previous_response_id
// and the reasoning item the upstream sealed, sent back) reaches the upstream under the same
// credential as the request it continues: a gateway that rotates keys keeps the pair together,
// or refuses the continuation explicitly.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { responsesJsonReply, responsesAnswer, sealedAnswer, sealedReasoningItem } from '../../src/protocols/responses/index.js';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { headerValues, type RecordedRequest } from '../../src/upstream/record.js';
import { exchange, isExplicitRefusal, notForwarded, responsesSend } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { DEFAULT_MODEL } from '../../src/protocols/index.js';

const SEALED = 'gAAAAABgwc-reasoning-sealed-for-the-first-account-000000000000000000000000000000';
const FIRST_ID = 'resp_gwc_affinity_first_000000000000000000000001';

const first = () => JSON.stringify({ model: DEFAULT_MODEL.responses, store: true, include: ['reasoning.encrypted_content'], input: [{ role: 'user', content: [{ type: 'input_text', text: `${CASE_PLACEHOLDER} Plan the refactor.` }] }] });

/** The continuation: the first answer named, and its sealed reasoning item sent back before the next turn. */
const second = () =>
  JSON.stringify({
    model: DEFAULT_MODEL.responses,
    previous_response_id: FIRST_ID,
    include: ['reasoning.encrypted_content'],
    input: [sealedReasoningItem(SEALED), { role: 'user', content: [{ type: 'input_text', text: `${CASE_PLACEHOLDER} Now do it.` }] }],
  });

/** The credential headers a request reached the upstream with, as one comparable text (values never shown). */
const credentialOf = (seen: RecordedRequest) => ['authorization', 'x-api-key'].map((h) => `${h}=${headerValues(seen, h).join(',')}`).join(';');

export default defineCheck({
  id: 'responses.state.affinity',
  title: 'A continuation (previous_response_id, a sealed reasoning item sent back) reaches the upstream under the credential of the response it continues',
  requirements: ['RESP-STATE-2'],
  level: 'MUST',
  untranslatable: 'the upstream credential of each request, header for header',
  protocol: 'responses',
  requirement:
    'A Responses API request that continues an earlier one (`previous_response_id` naming it, and the reasoning item the upstream sealed in it sent back with its `encrypted_content`) reaches the upstream under the same credential as the request it continues; a gateway that cannot keep the two together refuses the continuation with an explicit error instead of sending it under another account.',
  fix: 'When the gateway spreads requests over a pool of keys or accounts, keep a conversation on the key that made its first response (affinity by `previous_response_id` or by the session), or refuse the continuation with a clear error; sent under another account, sealed reasoning and stored responses are refused upstream (`invalid_encrypted_content`, "previous response not found").',
  async run(ctx) {
    const a = await exchange(ctx, first(), responsesSend({ reply: responsesJsonReply(JSON.stringify(sealedAnswer(FIRST_ID, SEALED, 'Here is the plan.'), null, 2)) }));
    if (!a.seen) return notForwarded(a);
    const b = await exchange(ctx, second(), responsesSend({ reply: responsesJsonReply(responsesAnswer({ text: 'Done.', previous: FIRST_ID })) }));
    const evidence = { first: exchangeEvidence(a), continuation: exchangeEvidence(b) };
    if (!b.seen) {
      if (isExplicitRefusal(b)) return pass(`the gateway refused the continuation explicitly (${b.res.status}) rather than send it under another account`, evidence);
      return { ...notForwarded(b), evidence };
    }
    const same = credentialOf(a.seen) === credentialOf(b.seen);
    if (!same) return fail('the continuation reached the upstream under another credential than the response it continues: the upstream account that sealed its reasoning item is not the one asked to read it', { expected: 'the same credential headers on both requests', actual: 'the credential headers differ between the first request and its continuation (values masked in the evidence)', evidence });
    return pass('the continuation reached the upstream under the same credential as the response it continues', evidence);
  },
});
