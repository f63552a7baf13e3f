import { defineCheck, fail, pass } from '../../src/check/check.js';
import { maskUrl } from '../../src/core/mask.js';
import { nativePath } from '../shared/protocols.js';
import { streamEvidenceOf } from '../shared/exchange.js';
import { nativeStreamExchange } from './common.js';

// Model ids as consoles show them: dots, dashes, a version suffix, a preview date.
const MODELS = ['gemini-2.5-flash', 'gemini-2.5-pro-preview-06-05'];

/** What is wrong with the path that arrived: the colon encoded, the model changed, alt=sse lost. */
function whatChanged(url: string, model: string): string {
  const [path, query = ''] = url.split('?');
  const said: string[] = [];
  if (/%3A/i.test(path)) said.push('the ":" was percent-encoded as %3A');
  if (!decodeURIComponent(path).includes(`/models/${model}:`)) said.push(`the model id ${model} is not in the path`);
  if (!path.endsWith(':streamGenerateContent') && !/%3AstreamGenerateContent$/i.test(path)) said.push('the method is not :streamGenerateContent');
  if (new URLSearchParams(query).get('alt') !== 'sse') said.push('the alt=sse query was dropped (the API then answers one JSON array, not an event stream)');
  return said.join('; ') || 'the path differs';
}

export default defineCheck({
  id: 'native.stream.path',
  title: 'POST /v1beta/models/{model}:streamGenerateContent?alt=sse arrives upstream with its model, its ":" and its alt=sse query',
  requirements: ['NAT-STREAM-1'],
  level: 'MUST',
  untranslatable: 'the path and query as the client sent them',
  protocol: 'native',
  requirement:
    'A streamed native request reaches the upstream at /v1beta/models/{model}:streamGenerateContent?alt=sse: the model id intact, the ":" before the method not percent-encoded, and the alt=sse query kept.',
  fix: 'Forward `:streamGenerateContent?alt=sse` with its path and query as received: the `:` unencoded, the model id intact, `alt=sse` kept (without it the API answers one JSON array and Gemini clients, which read `data:` events, fail). nginx: `proxy_pass` without a URI part keeps both.',
  async run(ctx) {
    const seen: string[] = [];
    for (const model of MODELS) {
      const x = await nativeStreamExchange(ctx, { model });
      const want = nativePath(model, true);
      if (!x.seen) return fail(`the streamed request for ${model} never reached the upstream (the gateway answered ${x.res.status})`, { expected: want, actual: '(no upstream request)', evidence: streamEvidenceOf(x) });
      if (x.seen.url !== want) return fail(`the streamed request arrived at ${maskUrl(x.seen.url)}: ${whatChanged(x.seen.url, model)}`, { expected: want, actual: maskUrl(x.seen.url), evidence: streamEvidenceOf(x) });
      seen.push(x.seen.url);
    }
    return pass(`both streamed requests arrived at their path unchanged (":" kept, alt=sse kept)`, { paths: seen });
  },
});
