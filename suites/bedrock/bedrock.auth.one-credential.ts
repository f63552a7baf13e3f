// AUTH-UP-1 for the bedrock protocol: each credential style its clients use reaches the upstream as
// exactly one credential (suites/shared/one-credential.ts judges it).
import { defineCheck } from '../../src/check/check.js';
import type { AuthStyle } from '../../src/client/gateway.js';
import { oneCredential } from '../shared/one-credential.js';

const STYLES: readonly AuthStyle[] = ['bearer'];

export default defineCheck({
  id: 'bedrock.auth.one-credential',
  title: 'A bedrock request sent with Authorization: Bearer reaches the upstream with exactly one credential',
  requirements: ['AUTH-UP-1'],
  level: 'MUST',
  credential: true,
  protocol: 'bedrock',
  requirement: 'A bedrock request sent with Authorization: Bearer (a Bedrock API key) reaches the upstream carrying exactly one credential: one credential header, once, the client\'s or the gateway\'s own; never one credential beside another (x-api-key beside Authorization: Bearer, x-goog-api-key beside `?key=`) nor the same header twice. The check names the credentials that arrived, never their values.',
  fix: 'Send Bedrock one credential: the client\'s bearer, or the gateway\'s own (a bearer key, or a SigV4 `Authorization` in its place); never an `x-api-key` beside it, nor a second `Authorization`.',
  run: (ctx) => oneCredential(ctx, 'bedrock', STYLES),
});
