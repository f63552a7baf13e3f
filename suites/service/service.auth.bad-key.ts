import { defineCheck, fail, pass } from '../../src/check/check.js';
import type { GwRequest } from '../../src/client/gateway.js';
import { BAD_KEY, chatRequest, messagesRequest, modelsOf, nativeRequest, responseEvidence } from './common.js';
import { isJsonType, jsonOf } from '../shared/shape.js';
import { excerpt } from '../shared/evidence.js';

/** The same request with the run's credential replaced by a bad key in the same place. */
function withBadKey(req: Omit<GwRequest, 'signal'>, header: string, value: string): Omit<GwRequest, 'signal'> {
  return { ...req, auth: 'none', headers: [...(req.headers ?? []), [header, value]] };
}

export default defineCheck({
  id: 'service.auth.bad-key',
  title: 'A bad key on each protocol is refused with a JSON error, and with 401 on chat completions',
  requirements: ['SVC-2'],
  level: 'MUST',
  profile: 'service',
  requirement: 'A key the service did not issue is refused on every protocol with a JSON error body (the native protocol answers 400 INVALID_ARGUMENT, the messages protocol 401), and with HTTP 401 on the chat-completions protocol; never a success, a redirect or an HTML page.',
  fix: 'Refuse keys the service did not issue, on every protocol, with a JSON error (HTTP 401 on chat completions).',
  async run(ctx) {
    const models = modelsOf(ctx);
    const cases = [
      { name: 'messages (Authorization: Bearer)', req: withBadKey(messagesRequest(models.messages, false), 'authorization', `Bearer ${BAD_KEY}`), want401: false },
      { name: 'native (x-goog-api-key)', req: withBadKey(nativeRequest(models.native, false), 'x-goog-api-key', BAD_KEY), want401: false },
      { name: 'chat (Authorization: Bearer)', req: withBadKey(chatRequest(models.chat, false), 'authorization', `Bearer ${BAD_KEY}`), want401: true },
    ];
    const seen: string[] = [];
    for (const c of cases) {
      const res = await ctx.gateway.send({ ...c.req, signal: ctx.signal });
      const body = jsonOf(res.text()) as { error?: unknown } | undefined;
      const jsonError = isJsonType(res.header('content-type')) && !!body && typeof body === 'object' && 'error' in body;
      const statusOk = c.want401 ? res.status === 401 : res.status >= 400 && res.status < 500;
      if (!statusOk || !jsonError) {
        const html = /<html|<!doctype/i.test(res.text());
        return fail(`${c.name}: a bad key got ${res.status}${jsonError ? ' with a JSON error' : html ? ' with an HTML page' : ' without a JSON error body'}`, {
          expected: c.want401 ? '401 with a JSON error' : 'a 4xx JSON error',
          actual: `${res.status} ${res.header('content-type') ?? ''}: ${excerpt(res.text(), 200)}`,
          evidence: responseEvidence(c.name, res),
        });
      }
      seen.push(`${c.name.split(' ')[0]} ${res.status}`);
    }
    return pass(`a bad key was refused with a JSON error on every protocol: ${seen.join(', ')}`, { seen });
  },
});
