// APP-PROTO-1 (INFO): the contract the apps gateway serves at GET /protocol, set beside the one the
// catalog was written against (src/core/apps-contract.ts): its digest, and which statements that
// requirements rely on it no longer makes. Reported, never a failure: the contract moves with the
// product, and a moved statement is for the catalog's maintainers to weigh.
import { defineCheck, fail, pass } from '../../src/check/check.js';
import { contractDifferences, EXPECTED_APPS_CONTRACT } from '../../src/core/apps-contract.js';
import { appsRun, brief, call } from './common.js';

const short = (sha: string) => sha.slice(0, 12);

export default defineCheck({
  id: 'apps.protocol.contract',
  title: 'The contract the apps gateway serves at GET /protocol, against the one the catalog was written against',
  requirements: ['APP-PROTO-1'],
  level: 'INFO',
  profile: 'apps',
  requirement: `Reports the sha256 of the contract served at GET ${EXPECTED_APPS_CONTRACT.path} (unauthenticated) and, against ${EXPECTED_APPS_CONTRACT.source}, the statements requirements rely on that it no longer makes and the sections it adds or drops.`,
  fix: 'Nothing to fix in the gateway: the contract it serves at `/protocol` moved from the one the catalog was written against. Read the statements named: where the client\'s handling changed, the requirement that relies on the statement needs review.',
  run: appsRun(async (fx) => {
    const got = await call(`${fx.gatewayUrl}${EXPECTED_APPS_CONTRACT.path}`);
    if (got.status !== 200) return { ok: true, skip: true, message: `the gateway serves no contract at GET ${EXPECTED_APPS_CONTRACT.path} (${got.status})`, evidence: { protocol: brief(got) } };
    const d = contractDifferences(got.text);
    const sections = [d.headingsAdded.length ? `sections added: ${d.headingsAdded.join('; ')}` : '', d.headingsGone.length ? `sections gone: ${d.headingsGone.join('; ')}` : ''].filter(Boolean);
    const evidence = { digest: `sha256:${d.sha256}`, expectedDigest: `sha256:${EXPECTED_APPS_CONTRACT.sha256}`, bytes: Buffer.byteLength(got.text), contentType: got.contentType, missing: d.missing, headingsAdded: d.headingsAdded, headingsGone: d.headingsGone };
    if (d.missing.length)
      return fail(`the served contract (sha256 ${short(d.sha256)}) no longer makes ${d.missing.length} of the ${EXPECTED_APPS_CONTRACT.statements.length} statements the catalog relies on: ${d.missing.map((s) => `"${s.quote}" (${s.backs})`).join('; ')}`, {
        expected: `every statement of ${EXPECTED_APPS_CONTRACT.source} that a requirement relies on`,
        actual: [`missing: ${[...new Set(d.missing.map((s) => s.backs))].join(', ')}`, ...sections].join('\n'),
        evidence,
      });
    if (d.same) return pass(`the contract the catalog was written against (${EXPECTED_APPS_CONTRACT.source}; sha256 ${short(d.sha256)})`, evidence);
    return pass(`sha256 ${short(d.sha256)}, not ${short(EXPECTED_APPS_CONTRACT.sha256)} (${EXPECTED_APPS_CONTRACT.source}); every statement the catalog relies on is still made${sections.length ? `; ${sections.join('; ')}` : ''}`, evidence);
  }),
});
