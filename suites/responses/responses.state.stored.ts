// RESP-STATE-1: a stored response read back (GET /v1/responses/{id}) and cancelled (POST
// /v1/responses/{id}/cancel) reaches the upstream, and its answer, a 404 for an id it does not
// know included, reaches the client with its status and body.
import { defineCheck, pass } from '../../src/check/check.js';
import { apiPath } from '../../src/protocols/index.js';
import { storedResponse } from '../../src/protocols/responses/index.js';
import { CASE_PLACEHOLDER } from '../../src/upstream/contract.js';
import { passedThrough, routeError, routeExchange, routeReply, type RouteRequest } from '../shared/api-route.js';

/** The id the path names: the case token in it, so the request is tied to its case by its URL too. */
const ID = `resp_${CASE_PLACEHOLDER}`;

const steps = (): Array<{ what: string; req: RouteRequest }> => [
  { what: 'reading a stored response back', req: { method: 'GET', path: apiPath('responses', 'stored-response', ID), auth: 'bearer', reply: routeReply('responses', storedResponse('resp_gwc_stored', 'The stored answer.')) } },
  { what: 'cancelling a background response', req: { method: 'POST', path: apiPath('responses', 'cancel-response', ID), auth: 'bearer', reply: routeReply('responses', storedResponse('resp_gwc_cancelled', '', 'cancelled')) } },
  { what: 'reading back a response the upstream does not know', req: { method: 'GET', path: apiPath('responses', 'stored-response', ID), auth: 'bearer', reply: routeError('responses', 404, "No response found with id 'resp_gwc_unknown'.") } },
];

export default defineCheck({
  id: 'responses.state.stored',
  title: 'GET /v1/responses/{id} and POST /v1/responses/{id}/cancel reach the upstream, and its answer (a 404 included) comes back',
  requirements: ['RESP-STATE-1'],
  level: 'MUST',
  protocol: 'responses',
  requirement:
    'A stored response read back with GET /v1/responses/{id}, and a cancel with POST /v1/responses/{id}/cancel, reach the upstream on their paths, and the upstream\'s answer reaches the client with its status and body: the response object, the cancelled response, and the upstream\'s 404 for an id it does not know.',
  fix: 'Forward `GET /v1/responses/{id}` and `POST /v1/responses/{id}/cancel` to the upstream (a route table with only `POST /v1/responses` answers them 404 itself), and pass the upstream\'s answer back with its status, a 404 included.',
  async run(ctx) {
    for (const s of steps()) {
      const x = await routeExchange(ctx, s.req);
      const broken = passedThrough(x, s.what);
      if (broken) return broken;
    }
    return pass('the stored response, its cancel and the upstream\'s 404 for an unknown id all reached the upstream and came back as it answered');
  },
});
