import { defineCheck, fail, pass } from '../../src/check/check.js';
import { describeDiff } from '../../src/core/json-diff.js';
import { maskUrl } from '../../src/core/mask.js';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { nativeCountTokensBody, nativeJsonReply, NATIVE_MODEL } from '../../src/protocols/native/index.js';
import { exchange, isExplicitRefusal, nativeSend, responseDiffs } from '../shared/exchange.js';
import { exchangeEvidence, excerpt } from '../shared/evidence.js';

/** A count no estimate from the body's length gives. */
const COUNT = 4711;
const PATH = `/v1beta/models/${NATIVE_MODEL}:countTokens`;

export default defineCheck({
  id: 'native.count-tokens.passthrough',
  title: 'POST /v1beta/models/{model}:countTokens reaches the upstream at that path and its count comes back unchanged, or is refused with a JSON error',
  requirements: ['NAT-CT-1'],
  level: 'MUST',
  untranslatable: 'the countTokens path and answer',
  protocol: 'native',
  requirement:
    'A native countTokens request arrives upstream at /v1beta/models/{model}:countTokens (the ":" not encoded, the model intact) and the client gets the upstream\'s totalTokens unchanged; a gateway that does not serve it answers an error status with a JSON body; a count the upstream never gave fails.',
  fix: 'Route `POST /v1beta/models/{model}:countTokens` to the upstream like generateContent (keep the `:` unencoded), and return its `totalTokens` as it came; if the gateway cannot serve it, answer a JSON error, never an estimate of its own.',
  async run(ctx) {
    const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: `${CASE_PLACEHOLDER} How many tokens is this?` }] }] });
    const send = nativeSend({ reply: nativeJsonReply(nativeCountTokensBody(COUNT)) });
    const x = await exchange(ctx, body, { ...send, endpoint: { path: PATH } });
    const evidence = exchangeEvidence(x, 600);
    if (!x.seen) {
      if (isExplicitRefusal(x)) return pass(`the gateway refused countTokens with ${x.res.status} and a JSON error (it does not serve it)`, evidence);
      if (x.res.status < 300) return fail(`the client got a count (status ${x.res.status}) the upstream never gave: the request never reached it`, { expected: `the upstream's totalTokens ${COUNT}, or a JSON error`, actual: excerpt(x.res.text(), 200), evidence });
      return fail(`countTokens was neither forwarded nor refused with a JSON error: status ${x.res.status}`, { expected: 'forwarded, or a JSON error', actual: excerpt(x.res.text(), 200), evidence });
    }
    if (x.seen.url !== PATH) return fail(`countTokens arrived at ${maskUrl(x.seen.url)}${/%3A/i.test(x.seen.url) ? ' (the ":" percent-encoded)' : ''}`, { expected: PATH, actual: maskUrl(x.seen.url), evidence });
    if (x.res.status !== 200) return fail(`the upstream answered 200 but the client got ${x.res.status}`, { expected: '200', actual: String(x.res.status), evidence });
    const d = responseDiffs(x, '/totalTokens');
    if (d.parseError) return fail(`the count did not come back as JSON: ${d.parseError}`, { evidence });
    if (d.diffs.length) return fail(`the count changed on the way: ${describeDiff(d.diffs[0])}`, { expected: String(COUNT), actual: d.diffs.map(describeDiff).join('; '), evidence });
    return pass(`countTokens reached ${PATH} and its count (${COUNT}) came back unchanged`, evidence);
  },
});
