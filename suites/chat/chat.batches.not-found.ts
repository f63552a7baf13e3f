// BATCH-2: GET /v1/batches/{id} (OpenAI's batches) for a batch the upstream does not know: its
// 404 reaches the client as a 404 with its body, not a 500 (or a 404 of the gateway's own).
import { defineCheck, pass } from '../../src/check/check.js';
import { apiPath } from '../../src/protocols/index.js';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { passedThrough, routeError, routeExchange } from '../shared/api-route.js';

export default defineCheck({
  id: 'chat.batches.not-found',
  title: 'GET /v1/batches/{id} of an unknown batch: the upstream\'s 404 reaches the client (not a 500)',
  requirements: ['BATCH-2'],
  level: 'MUST',
  protocol: 'chat',
  requirement:
    'A GET /v1/batches/{id} reaches the upstream on its path, and when the upstream does not know the batch its 404 (OpenAI\'s error body) reaches the client with that status and body; the gateway does not turn it into a 500 or answer a 404 of its own.',
  fix: 'Forward `GET /v1/batches/{id}` to the upstream and pass its 404 back as it came; a gateway that looks the batch up itself, or fails on the upstream\'s 404, answers 500, and clients then retry a batch that does not exist.',
  async run(ctx) {
    const x = await routeExchange(ctx, { method: 'GET', path: apiPath('chat', 'batch', `batch_${CASE_PLACEHOLDER}`), auth: 'bearer', reply: routeError('chat', 404, "No batch found with id 'batch_gwc_unknown'.") });
    const broken = passedThrough(x, 'the unknown batch');
    if (broken) return broken;
    return pass('the upstream\'s 404 for the unknown batch reached the client with its status and body');
  },
});
