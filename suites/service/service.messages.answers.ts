import { defineCheck, fail, pass } from '../../src/check/check.js';
import { readStream } from '../../src/client/sse.js';
import { messagesRequest, modelsOf, responseEvidence, streamResultEvidence } from './common.js';
import { isJsonType, jsonOf } from '../shared/shape.js';
import { cut } from '../shared/evidence.js';
import { plural } from '../../src/core/words.js';

export default defineCheck({
  id: 'service.messages.answers',
  title: 'The messages protocol answers under the service key, as JSON and as a stream',
  requirements: ['SVC-1'],
  level: 'MUST',
  profile: 'service',
  protocol: 'messages',
  requirement: 'POST /v1/messages with Authorization: Bearer <service key> and the configured model answers 200 with a JSON message, and with stream true an event stream from message_start to message_stop.',
  fix: 'Check the service key (`GWC_SERVICE_KEY`) and model (`GWC_MESSAGES_MODEL`); the service must answer `POST /v1/messages` with JSON and with an event stream.',
  async run(ctx) {
    const models = modelsOf(ctx);
    const res = await ctx.gateway.send({ ...messagesRequest(models.messages, false), signal: ctx.signal });
    const body = jsonOf(res.text()) as { type?: string; content?: Array<{ type?: string; text?: string }>; stop_reason?: string } | undefined;
    if (res.status !== 200 || !isJsonType(res.header('content-type')) || body?.type !== 'message' || !Array.isArray(body.content))
      return fail(`POST /v1/messages (model ${models.messages}) answered ${res.status}${body ? '' : ' without a JSON body'}`, { expected: '200 with a JSON message', actual: `${res.status} ${res.header('content-type') ?? ''}`, evidence: responseEvidence('json', res) });
    const text = body.content.filter((b) => b?.type === 'text').map((b) => b.text ?? '').join('');
    const s = await readStream(ctx.gateway, { ...messagesRequest(models.messages, true), signal: ctx.signal });
    const names = s.events.map((e) => e.event ?? 'message');
    const sev = streamResultEvidence('stream', '/v1/messages', s);
    if (s.status !== 200 || !/text\/event-stream/i.test(s.header('content-type') ?? ''))
      return fail(`the streamed messages request answered ${s.status} ${s.header('content-type') ?? ''}`, { expected: '200 text/event-stream', actual: `${s.status} ${s.header('content-type') ?? ''}`, evidence: sev });
    if (s.error || names[0] !== 'message_start' || !names.includes('message_stop') || names.includes('error'))
      return fail(`the messages stream did not run from message_start to message_stop${s.error ? ` (${s.error})` : ''}: ${names.slice(0, 12).join(', ')}`, { expected: 'message_start ... message_stop', actual: names.join(', '), evidence: sev });
    return pass(`answered under the service key: JSON 200 (${JSON.stringify(cut(text, 40))}, stop_reason ${body.stop_reason ?? '?'}) and a stream of ${plural(s.events.length, 'event')} ending message_stop`);
  },
});
