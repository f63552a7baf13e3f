import { defineCheck, fail, pass } from '../../src/check/check.js';
import { maskUrl } from '../../src/core/mask.js';
import { exchange, nativeSend, notForwarded } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { nativeBody, nativePath } from '../shared/protocols.js';
import { pathChange } from '../shared/route.js';

// Model ids as consoles show them: dots, dashes, a version suffix, a preview date.
const MODELS = ['gemini-2.5-flash', 'gemini-2.0-flash-001', 'gemini-2.5-pro-preview-06-05'];

export default defineCheck({
  id: 'native.path.colon',
  title: 'POST /v1beta/models/{model}:generateContent arrives at that path, the ":" not encoded',
  requirements: ['NAT-PATH-1'],
  level: 'MUST',
  untranslatable: 'the path as the client sent it',
  protocol: 'native',
  requirement: 'A native request reaches the upstream at /v1beta/models/{model}:generateContent: the model id intact and the ":" before the method not percent-encoded.',
  fix: 'Keep the `:` of `:generateContent` unencoded and the model id intact: forward the raw path (nginx: `proxy_pass` without a URI part).',
  async run(ctx) {
    const seenPaths: string[] = [];
    for (const model of MODELS) {
      const x = await exchange(ctx, nativeBody(), nativeSend({ model }));
      if (!x.seen) return notForwarded(x);
      const want = nativePath(model);
      if (x.seen.url !== want) {
        const encoded = /%3A/i.test(x.seen.url);
        return fail(`${pathChange(x.seen.method, maskUrl(want), maskUrl(x.seen.url))}${encoded ? ' (the ":" was percent-encoded as %3A)' : ''}`, { expected: want, actual: maskUrl(x.seen.url), evidence: exchangeEvidence(x) });
      }
      seenPaths.push(x.seen.url);
    }
    return pass(`all ${seenPaths.length} native paths arrived unchanged (":" kept)`, { paths: seenPaths });
  },
});
