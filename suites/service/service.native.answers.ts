import { defineCheck, fail, pass } from '../../src/check/check.js';
import { readStream } from '../../src/client/sse.js';
import { nativeAnswer } from '../../src/protocols/native/index.js';
import { modelsOf, nativeRequest, responseEvidence, streamResultEvidence } from './common.js';
import { isJsonType, jsonOf } from '../shared/shape.js';
import { cut } from '../shared/evidence.js';
import { plural } from '../../src/core/words.js';

export default defineCheck({
  id: 'service.native.answers',
  title: 'The native protocol answers under the service key, as JSON and as a stream (alt=sse)',
  requirements: ['SVC-1'],
  level: 'MUST',
  profile: 'service',
  protocol: 'native',
  requirement:
    'POST /v1beta/models/{model}:generateContent with x-goog-api-key: <service key> answers 200 with a JSON answer (candidates, or promptFeedback), and :streamGenerateContent?alt=sse answers 200 with data-only frames of JSON; whether the answer has text is SVC-4.',
  fix: 'Check the service key and `GWC_NATIVE_MODEL`; the service must answer `:generateContent` with JSON and `:streamGenerateContent?alt=sse` with data-only frames.',
  async run(ctx) {
    const models = modelsOf(ctx);
    const req = nativeRequest(models.native, false);
    const res = await ctx.gateway.send({ ...req, signal: ctx.signal });
    const body = jsonOf(res.text()) as { candidates?: unknown; promptFeedback?: unknown } | undefined;
    if (res.status !== 200 || !isJsonType(res.header('content-type')) || !body || (!Array.isArray(body.candidates) && !body.promptFeedback))
      return fail(`POST ${req.path} answered ${res.status}${body ? '' : ' without a JSON body'}`, { expected: '200 with a JSON answer (candidates)', actual: `${res.status} ${res.header('content-type') ?? ''}`, evidence: responseEvidence('json', res) });
    const a = nativeAnswer(body);
    const sreq = nativeRequest(models.native, true);
    const s = await readStream(ctx.gateway, { ...sreq, signal: ctx.signal });
    const sev = streamResultEvidence('stream', sreq.path, s);
    if (s.status !== 200 || !/text\/event-stream/i.test(s.header('content-type') ?? ''))
      return fail(`POST ${sreq.path} answered ${s.status} ${s.header('content-type') ?? ''}`, { expected: '200 text/event-stream', actual: `${s.status} ${s.header('content-type') ?? ''}`, evidence: sev });
    const bad = s.events.findIndex((e) => jsonOf(e.data) === undefined);
    if (s.error || !s.events.length || bad >= 0)
      return fail(`the native stream ${s.error ? `ended with an error (${s.error})` : !s.events.length ? 'carried no frame' : `has a frame that is not JSON (frame ${bad})`}`, { expected: 'data frames of JSON', actual: `${plural(s.events.length, 'frame')}`, evidence: sev });
    const textNote = a.text ? `text ${JSON.stringify(cut(a.text, 40))}` : `no text (finishReason ${a.finishReasons.join(',') || a.blockReason || 'none'}: see service.native.no-text)`;
    return pass(`answered under the service key: JSON 200 (${textNote}) and a stream of ${plural(s.events.length, 'frame')}`);
  },
});
