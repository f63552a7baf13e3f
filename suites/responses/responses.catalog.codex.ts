// DISC-CODEX-1: Codex asks GET /v1/models?client_version=... for its own model catalog
// ({"models": [...]}); the upstream's catalog reaches it in that shape, not rewritten into (or
// answered by the gateway with) OpenAI's {"object": "list", "data": [...]}, which empties its picker.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { tryParse } from '../../src/core/json.js';
import { apiPath } from '../../src/protocols/index.js';
import { codexCatalog } from '../../src/protocols/responses/index.js';
import { passedThrough, routeExchange, routeReply } from '../shared/api-route.js';
import { exchangeEvidence } from '../shared/evidence.js';

/** The pinned Codex CLI's version, as it sends it. */
const CLIENT_VERSION = '0.171.0';

/** Whether a body is OpenAI's model list (`data`) rather than Codex's catalog (`models`). */
function openAiShape(text: string): boolean {
  const p = tryParse(text);
  return p.ok && p.node.t === 'obj' && p.node.entries.some(([k]) => k === 'data') && !p.node.entries.some(([k]) => k === 'models');
}

/** Whether a body is a JSON object with an `error` (the gateway's refusal in any protocol's shape). */
function isJsonError(text: string): boolean {
  const p = tryParse(text);
  return p.ok && p.node.t === 'obj' && p.node.entries.some(([k]) => k === 'error');
}

export default defineCheck({
  id: 'responses.catalog.codex',
  title: 'GET /v1/models?client_version=... (Codex\'s catalog) reaches the upstream and its {"models": [...]} manifest comes back in that shape',
  requirements: ['DISC-CODEX-1'],
  level: 'MUST',
  protocol: 'responses',
  requirement:
    'A GET /v1/models carrying Codex\'s `client_version` query reaches the upstream with that query, and the catalog the upstream answers (`{"models": [...]}` of slugs, display names and reasoning levels) reaches the client in that shape and content; the gateway does not answer it, or rewrite it, as OpenAI\'s `{"object": "list", "data": [...]}`. A gateway that offers no catalog may answer a JSON 404 of its own (judged as not applicable).',
  fix: 'Forward `GET /v1/models?client_version=...` with its query and pass the upstream\'s catalog through as it came; a gateway that serves its own OpenAI-shaped model list must not answer this request with it (Codex reads `models`, finds none, and its model picker stays empty).',
  async run(ctx) {
    const x = await routeExchange(ctx, { method: 'GET', path: apiPath('responses', 'client-catalog', CLIENT_VERSION), headers: [['accept', 'application/json']], auth: 'bearer', reply: routeReply('responses', codexCatalog('gw-conformance catalog.')) });
    if (x.res.status === 200 && openAiShape(x.res.text()))
      return fail(`Codex's catalog request got OpenAI's model-list shape ({"object": "list", "data": [...]}) ${x.seen ? 'in place of the upstream\'s catalog' : 'from the gateway itself'}: Codex finds no \`models\` in it`, { expected: 'the upstream\'s {"models": [...]} catalog', actual: x.res.text().slice(0, 200), evidence: exchangeEvidence(x) });
    // A gateway that offers no catalog may say so with a JSON 404 of its own: Codex then lists the models it bundles.
    if (!x.seen && x.res.status === 404 && isJsonError(x.res.text()))
      return { ok: true, skip: true, message: `the gateway offers no model catalog (its own JSON 404): Codex falls back to the models it bundles, and there is no catalog to judge`, evidence: exchangeEvidence(x) };
    const broken = passedThrough(x, 'Codex\'s catalog request');
    if (broken) return broken;
    return pass(`the catalog request reached the upstream as ${x.seen!.url} and its {"models": [...]} manifest came back unchanged`, exchangeEvidence(x));
  },
});
