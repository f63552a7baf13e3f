import { defineCheck, fail, pass } from '../../src/check/check.js';
import { readStream } from '../../src/client/sse.js';
import { chatRequest, modelsOf, responseEvidence, streamResultEvidence } from './common.js';
import { isJsonType, jsonOf } from '../shared/shape.js';
import { cut } from '../shared/evidence.js';
import { plural } from '../../src/core/words.js';

export default defineCheck({
  id: 'service.chat.answers',
  title: 'The chat-completions protocol answers under the service key, as JSON and as a stream ending [DONE]',
  requirements: ['SVC-1'],
  level: 'MUST',
  profile: 'service',
  protocol: 'chat',
  requirement: 'POST /v1/chat/completions with Authorization: Bearer <service key> answers 200 with choices[].message, and with stream true a data-only stream of chunks ending data: [DONE].',
  fix: 'Check the service key and `GWC_CHAT_MODEL`; the service must answer `/v1/chat/completions` with JSON and with a stream ending `data: [DONE]`.',
  async run(ctx) {
    const models = modelsOf(ctx);
    const res = await ctx.gateway.send({ ...chatRequest(models.chat, false), signal: ctx.signal });
    const body = jsonOf(res.text()) as { choices?: Array<{ message?: { content?: unknown }; finish_reason?: string }> } | undefined;
    const msg = body?.choices?.[0]?.message;
    if (res.status !== 200 || !isJsonType(res.header('content-type')) || !msg)
      return fail(`POST /v1/chat/completions (model ${models.chat}) answered ${res.status}${body ? '' : ' without a JSON body'}`, { expected: '200 with choices[].message', actual: `${res.status} ${res.header('content-type') ?? ''}`, evidence: responseEvidence('json', res) });
    const s = await readStream(ctx.gateway, { ...chatRequest(models.chat, true), signal: ctx.signal });
    const sev = streamResultEvidence('stream', '/v1/chat/completions', s);
    if (s.status !== 200 || !/text\/event-stream/i.test(s.header('content-type') ?? ''))
      return fail(`the streamed chat request answered ${s.status} ${s.header('content-type') ?? ''}`, { expected: '200 text/event-stream', actual: `${s.status} ${s.header('content-type') ?? ''}`, evidence: sev });
    const data = s.events.map((e) => e.data);
    if (s.error || data[data.length - 1] !== '[DONE]' || data.slice(0, -1).some((d) => jsonOf(d) === undefined))
      return fail(`the chat stream ${s.error ? `ended with an error (${s.error})` : data[data.length - 1] !== '[DONE]' ? 'did not end with data: [DONE]' : 'has a chunk that is not JSON'}`, { expected: 'JSON chunks, then data: [DONE]', actual: `${data.length} events, last ${JSON.stringify(data[data.length - 1] ?? null)}`, evidence: sev });
    const content = typeof msg.content === 'string' ? msg.content : '';
    return pass(`answered under the service key: JSON 200 (${JSON.stringify(cut(content, 40))}, finish_reason ${body?.choices?.[0]?.finish_reason ?? '?'}) and a stream of ${plural(data.length - 1, 'chunk')} ending [DONE]`);
  },
});
