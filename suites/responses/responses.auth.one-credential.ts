// AUTH-UP-1 for the responses protocol: each credential style its clients use reaches the upstream as
// exactly one credential (suites/shared/one-credential.ts judges it).
import { defineCheck } from '../../src/check/check.js';
import type { AuthStyle } from '../../src/client/gateway.js';
import { oneCredential } from '../shared/one-credential.js';

const STYLES: readonly AuthStyle[] = ['bearer'];

export default defineCheck({
  id: 'responses.auth.one-credential',
  title: 'A responses request sent with Authorization: Bearer reaches the upstream with exactly one credential',
  requirements: ['AUTH-UP-1'],
  level: 'MUST',
  credential: true,
  protocol: 'responses',
  requirement: 'A responses request sent with Authorization: Bearer (as Codex sends it) reaches the upstream carrying exactly one credential: one credential header, once, the client\'s or the gateway\'s own; never one credential beside another (x-api-key beside Authorization: Bearer, x-goog-api-key beside `?key=`) nor the same header twice. The check names the credentials that arrived, never their values.',
  fix: 'Send the upstream one credential: when the gateway puts its own key in `Authorization`, replace the client\'s rather than adding a second header, and add no `x-api-key` beside it; when it forwards the client\'s bearer (an API key or a ChatGPT sign-in token), add none of its own.',
  run: (ctx) => oneCredential(ctx, 'responses', STYLES),
});
