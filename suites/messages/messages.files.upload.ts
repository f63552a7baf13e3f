// FILES-1: the messages protocol's file upload, POST /v1/files as multipart with the Anthropic
// version and files beta, reaches the upstream unchanged (not caught by OpenAI's files route,
// which refuses it for a `purpose` it does not have), and the upstream's answer (its 404 where it
// has no files API included) reaches the client.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { ANTHROPIC_VERSION } from '../../src/client/gateway.js';
import { apiPath } from '../../src/protocols/index.js';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { headerValues } from '../../src/upstream/record.js';
import { passedThrough, routeError, routeExchange, routeReply } from '../shared/api-route.js';
import { exchangeEvidence } from '../shared/evidence.js';

const BOUNDARY = 'gwcFormBoundary7MA4YWxkTrZu0gW';
const BETA = 'files-api-2025-04-14';
const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** One file part, as the Anthropic SDK sends it (no `purpose`: the messages files API has none). */
const form = () => [`--${BOUNDARY}`, 'Content-Disposition: form-data; name="file"; filename="notes.txt"', 'Content-Type: text/plain', '', `${CASE_PLACEHOLDER} Notes for the review: keep the parser split.`, `--${BOUNDARY}--`, ''].join('\r\n');

const fileObject = { id: 'file_011CNha8iCJcU1wXNR6q4V8w', type: 'file', filename: 'notes.txt', mime_type: 'text/plain', size_bytes: 64, created_at: '2026-11-02T10:14:05.000000Z', downloadable: false };

const request = (reply: ReturnType<typeof routeReply>) => ({
  method: 'POST' as const,
  path: apiPath('messages', 'files'),
  body: form(),
  headers: [['content-type', CONTENT_TYPE], ['anthropic-version', ANTHROPIC_VERSION], ['anthropic-beta', BETA]] as Array<[string, string]>,
  reply,
});

export default defineCheck({
  id: 'messages.files.upload',
  title: 'POST /v1/files of the messages protocol (multipart, files beta) reaches the upstream unchanged, and its answer (a 404 included) comes back',
  requirements: ['FILES-1'],
  level: 'MUST',
  untranslatable: 'the multipart body, byte for byte',
  protocol: 'messages',
  requirement:
    'A messages-protocol file upload (POST /v1/files, multipart, with `anthropic-version` and the files beta) reaches the upstream with the same bytes under the same content type and beta, and the upstream\'s answer reaches the client with its status and body: the file object, or the upstream\'s own 404 where it has no files API; the gateway does not take it for OpenAI\'s files upload and refuse it.',
  fix: 'Route `POST /v1/files` by its protocol (an `anthropic-version` header means the messages API\'s files, which take no `purpose`) and forward the multipart body as it came; where the upstream has no files API, pass its 404 on instead of answering one of your own.',
  async run(ctx) {
    const x = await routeExchange(ctx, request(routeReply('messages', fileObject)));
    const broken = passedThrough(x, 'the file upload');
    if (broken) return broken;
    const seen = x.seen!;
    const evidence = exchangeEvidence(x);
    const sent = Buffer.from(form().replace(CASE_PLACEHOLDER, x.expectation.token));
    if (!seen.body.equals(sent)) return fail(`the multipart body changed on the way (${sent.length} bytes sent, ${seen.bodyBytes} arrived)`, { expected: 'the same bytes', actual: seen.body.toString('utf8').slice(0, 300), evidence });
    const type = headerValues(seen, 'content-type');
    const beta = headerValues(seen, 'anthropic-beta').flatMap((v) => v.split(',').map((b) => b.trim()));
    if (type.length !== 1 || type[0] !== CONTENT_TYPE || !beta.includes(BETA))
      return fail('the file upload reached the upstream without its content type or files beta as sent', { expected: `content-type: ${CONTENT_TYPE}; anthropic-beta: ${BETA}`, actual: `content-type: ${type.join(', ') || '(absent)'}; anthropic-beta: ${beta.join(', ') || '(absent)'}`, evidence });
    const missing = await routeExchange(ctx, request(routeError('messages', 404, 'Not found: the files API is not enabled on this upstream.')));
    const lost = passedThrough(missing, 'the upload the upstream answers 404');
    if (lost) return lost;
    return pass('the upload reached the upstream byte for byte with its content type and beta, and the file object and the upstream\'s 404 came back as it answered', evidence);
  },
});
