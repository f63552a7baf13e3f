// XLATE-BETA-1: on a route translated to a cloud upstream (messages in, Vertex rawPredict or
// Bedrock InvokeModel upstream) each anthropic-beta value the client sent either reaches the
// upstream, where that protocol carries betas (Vertex: the anthropic-beta header; Bedrock: the
// body's anthropic_beta list), or the client is refused with an error that names it. The check
// tells the two apart from the silent loss, and its evidence names which betas were dropped.
import { defineCheck, fail, pass, type Verdict } from '../../src/check/check.js';
import type { Protocol } from '../../src/protocols/index.js';
import type { RecordedRequest } from '../../src/upstream/record.js';
import { exchange, notForwarded } from '../shared/exchange.js';
import { exchangeEvidence, excerpt } from '../shared/evidence.js';
import { listValues } from '../shared/headers.js';
import { notTranslated, translation } from '../shared/route.js';
import { richBody, routeEvidence, ON_TRANSLATED_ROUTE } from './common.js';

/** Betas Claude Code sends on an ordinary turn: header-only ones, which turn a feature off silently when lost. */
const BETAS = ['claude-code-20250219', 'interleaved-thinking-2025-05-14', 'context-1m-2025-08-07', 'fine-grained-tool-streaming-2025-05-14'];

/** Where each cloud protocol carries the betas of a request, read from what the upstream received. */
const CARRIED: Partial<Record<Protocol, (seen: RecordedRequest) => string[]>> = {
  vertex: (seen) => listValues(seen, 'anthropic-beta'),
  bedrock: (seen) => {
    try {
      const b = (JSON.parse(seen.body.toString('utf8')) as { anthropic_beta?: unknown }).anthropic_beta;
      return [...(Array.isArray(b) ? b.map(String) : []), ...listValues(seen, 'anthropic-beta')];
    } catch {
      return listValues(seen, 'anthropic-beta');
    }
  },
};

/** A refusal of the client's request that names each of `betas` (the gateway's own, or the upstream's passed on). */
function refusalNaming(status: number, text: string, betas: string[]): boolean {
  return status >= 400 && status < 500 && betas.every((b) => text.includes(b));
}

export default defineCheck({
  id: 'translate.betas.carried',
  title: 'On a route translated to a cloud upstream every anthropic-beta value reaches the upstream or is refused by name, never dropped silently',
  requirements: ['XLATE-BETA-1'],
  ...ON_TRANSLATED_ROUTE,
  requirement:
    'On a route translated to a cloud upstream (Vertex rawPredict, Bedrock InvokeModel) each anthropic-beta value the client sent reaches the upstream where that protocol carries betas, or the client gets a 4xx error that names the beta it cannot carry; no beta is dropped while the request is forwarded.',
  fix: "Forward the client's betas where the cloud route reads them (Vertex: the `anthropic-beta` header of rawPredict; Bedrock: the body's `anthropic_beta` list). A beta the route cannot carry is refused with a 400 that names it; do not strip every beta to avoid the cloud's refusals, which turns 1M context, interleaved thinking and the like off without a word.",
  async run(ctx): Promise<Verdict> {
    const x = await exchange(ctx, richBody(), { headers: [['anthropic-beta', BETAS.join(',')]] });
    const t = x.seen ? translation('messages', x.seen) : null;
    if (x.seen && !t) return notTranslated('messages', x.seen);
    const evidence = { ...routeEvidence(ctx, x.seen), ...exchangeEvidence(x), sentBetas: BETAS };
    if (!x.seen) {
      if (refusalNaming(x.res.status, x.res.text(), BETAS)) return pass(`the gateway refused the request itself, naming the betas it cannot carry (status ${x.res.status})`, evidence);
      return notForwarded(x);
    }
    const carried = t ? CARRIED[t.to] : undefined;
    if (!t || !carried) return { ok: true, skip: true, message: `not applicable: the route forwards in ${t?.to}, which carries no anthropic-beta values (only routes to a cloud upstream are judged)`, evidence };
    const got = carried(x.seen);
    const dropped = BETAS.filter((b) => !got.includes(b));
    const told = { ...evidence, carriedBetas: BETAS.filter((b) => got.includes(b)), droppedBetas: dropped };
    if (!dropped.length) return pass(`every beta reached the ${t.to} upstream (${BETAS.length} of ${BETAS.length})`, told);
    if (refusalNaming(x.res.status, x.res.text(), dropped)) return pass(`the betas ${dropped.join(', ')} did not reach ${t.to}, and the client was refused by name (status ${x.res.status})`, told);
    return fail(`the gateway dropped ${dropped.length} of ${BETAS.length} betas on the way to ${t.to} without refusing them: ${dropped.join(', ')}`, {
      expected: `${BETAS.join(', ')} at the upstream, or a 4xx naming those it cannot carry`,
      actual: `the upstream got ${got.length ? got.join(', ') : 'no beta'}; the client got ${x.res.status} ${excerpt(x.res.text(), 120)}`,
      evidence: told,
    });
  },
});
