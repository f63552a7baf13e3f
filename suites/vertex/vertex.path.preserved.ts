import { defineCheck, fail, pass, type CheckContext } from '../../src/check/check.js';
import { maskUrl } from '../../src/core/mask.js';
import { messageStream } from '../../src/protocols/messages/index.js';
import { exchange, notForwarded, streamEvidenceOf } from '../shared/exchange.js';
import { exchangeEvidence } from '../shared/evidence.js';
import { vertexSend, vertexStream, wantPath, vertexBody, vertexPath } from './common.js';

// Model ids as Vertex names them: the version after an `@`, one with a `-v2` before it.
const MODELS = ['claude-sonnet-4-5@20250929', 'claude-opus-4-1@20250805', 'claude-3-5-sonnet-v2@20241022'];

/** What changed between the path sent and the one that arrived, in words. */
function whatChanged(want: string, got: string): string {
  const path = got.split('?')[0];
  if (/%3A/i.test(path)) return ' (the ":" before the method was percent-encoded as %3A)';
  if (/%40/i.test(path)) return ' (the "@" of the model id was percent-encoded as %40)';
  if (want.endsWith(':streamRawPredict') && path.endsWith(':rawPredict')) return ' (:streamRawPredict was rewritten to :rawPredict)';
  const model = (p: string) => /\/models\/([^/:]+)/.exec(p)?.[1];
  if (model(want) !== model(path)) return ` (the model ${model(want)} arrived as ${model(path) ?? 'nothing'})`;
  if (!/\/projects\/[^/]+\/locations\/[^/]+\//.test(path)) return ' (the project and region are missing)';
  return '';
}

/** Sends `path`'s request and compares where it arrived; null when it arrived as sent. */
async function arrived(ctx: CheckContext, model: string, stream: boolean) {
  const want = wantPath(ctx, vertexPath(model, stream));
  if (stream) {
    const s = await vertexStream(ctx, messageStream({ full: false, textDeltas: 2 }), { model });
    if (!s.seen) return fail(`the streamed request never reached the upstream (the gateway answered ${s.res.status})`, { expected: want, actual: '(no upstream request)', evidence: streamEvidenceOf(s) });
    return s.seen.url === want ? null : fail(`the streamed request arrived at ${maskUrl(s.seen.url)}${whatChanged(want, s.seen.url)}`, { expected: want, actual: maskUrl(s.seen.url), evidence: streamEvidenceOf(s) });
  }
  const x = await exchange(ctx, vertexBody(), vertexSend({ model }));
  if (!x.seen) return notForwarded(x);
  return x.seen.url === want ? null : fail(`the upstream received ${x.seen.method} ${maskUrl(x.seen.url)}${whatChanged(want, x.seen.url)}`, { expected: want, actual: maskUrl(x.seen.url), evidence: exchangeEvidence(x) });
}

export default defineCheck({
  id: 'vertex.path.preserved',
  title: 'POST .../publishers/anthropic/models/{model}@{version}:rawPredict (and :streamRawPredict) arrives at that path: project, region, model and method intact',
  requirements: ['VTX-PATH-1'],
  level: 'MUST',
  untranslatable: 'the path as the client sent it',
  protocol: 'vertex',
  requirement:
    'A Vertex request reaches the upstream at the path the client sent: /v1/projects/{project}/locations/{region}/publishers/anthropic/models/{model}:rawPredict or :streamRawPredict, with the project and region, the model id with its "@" version, and the ":" before the method neither percent-encoded nor stripped.',
  fix: 'Forward the Vertex path as received, after your own prefix: `/v1/projects/{project}/locations/{region}/publishers/anthropic/models/{model}:rawPredict` (or `:streamRawPredict`). Do not percent-encode the `:` or the `@` (nginx: `proxy_pass` without a URI part, so the request URI goes on unnormalised), do not map `@` versions to `-` dated ids, and send a stream to `:streamRawPredict`, never `:rawPredict`.',
  async run(ctx) {
    for (const model of MODELS) {
      const bad = await arrived(ctx, model, false);
      if (bad) return bad;
    }
    const bad = await arrived(ctx, MODELS[0], true);
    if (bad) return bad;
    return pass(`all ${MODELS.length + 1} Vertex paths arrived unchanged (project, region, "@" version and ":" method kept)`, { paths: [...MODELS.map((m) => wantPath(ctx, vertexPath(m))), wantPath(ctx, vertexPath(MODELS[0], true))] });
  },
});
