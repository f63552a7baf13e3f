import { defineCheck, fail, pass } from '../../src/check/check.js';
import { ANTHROPIC_VERSION } from '../../src/client/gateway.js';
import { headerValues } from '../../src/upstream/record.js';
import { attempt, withBound } from '../shared/shape.js';
import { DISCOVERY_PATH, discover, discoveryEvidence, replyFor, uncorrelated, uncorrelatedSkip, WAIT_MS } from './common.js';

/** A second, different credential: what another user of the same gateway sends. */
const OTHER = 'sk-ant-api03-gwc-second-user-credential-00000000';
/** A forwarded second request arrives within this bound after its answer, or is not counted. */
const LATE_MS = 300;

export default defineCheck({
  id: 'discovery.models.credential-cache',
  title: 'A model list the upstream marks cacheable, fetched with one key, is not served to another key',
  requirements: ['ISO-1'],
  level: 'MUST',
  area: 'discovery',
  profile: 'default',
  protocol: 'messages',
  requirement:
    "GET /v1/models with the run's key, answered with cache-control: max-age, then the same request with another key: the second reaches the upstream with its own credential (or is refused), never answered from what the first key got (ISO-1).",
  async run(ctx) {
    const e = replyFor(ctx, 'bearer');
    const first = await discover(ctx, 'bearer', e);
    if (uncorrelated(first)) return uncorrelatedSkip(first);
    if (!first.res || first.res.status !== 200 || !e.hits.length) return { ok: true, skip: true, message: 'the first key got no forwarded model list to reuse', evidence: discoveryEvidence(first) };
    const r = await attempt(() =>
      withBound(ctx.signal, WAIT_MS, (signal) =>
        ctx.gateway.send({ method: 'GET', path: DISCOVERY_PATH, auth: 'none', headers: [['anthropic-version', ANTHROPIC_VERSION], ['authorization', `Bearer ${OTHER}`]], caseToken: e.token, signal }),
      ),
    );
    if (!r.ok) return fail(`the second key's request got no answer: ${r.error}`, { evidence: discoveryEvidence(first) });
    const hits = await e.waitForHits(2, LATE_MS);
    const second = e.hits[1];
    const creds = second ? headerValues(second, 'authorization').concat(headerValues(second, 'x-api-key')) : [];
    const evidence = { first: discoveryEvidence(first, 300), secondStatus: r.value.status, upstreamHits: hits, secondCarriedFirstKey: creds.some((v) => ctx.gateway.isRunCredential(v)) };
    if (r.value.status < 300 && !second)
      return fail(`the answer the first key got was served to a second key: the upstream never saw the second request (status ${r.value.status} from the gateway)`, {
        expected: 'the second request forwarded with its own credential, or refused',
        actual: `1 upstream request for 2 keys; the second key got ${r.value.status}`,
        evidence,
      });
    if (second && evidence.secondCarriedFirstKey) return fail("the second key's request reached the upstream with the first key's credential", { expected: 'its own credential', actual: "the run's key", evidence });
    return pass(second ? 'the second key\'s request reached the upstream on its own' : `the second key was refused (${r.value.status}), not served the first key's list`, evidence);
  },
});
