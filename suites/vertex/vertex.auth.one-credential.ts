// AUTH-UP-1 for the vertex protocol: each credential style its clients use reaches the upstream as
// exactly one credential (suites/shared/one-credential.ts judges it).
import { defineCheck } from '../../src/check/check.js';
import type { AuthStyle } from '../../src/client/gateway.js';
import { oneCredential } from '../shared/one-credential.js';

const STYLES: readonly AuthStyle[] = ['bearer'];

export default defineCheck({
  id: 'vertex.auth.one-credential',
  title: 'A vertex request sent with Authorization: Bearer reaches the upstream with exactly one credential',
  requirements: ['AUTH-UP-1'],
  level: 'MUST',
  credential: true,
  protocol: 'vertex',
  requirement: 'A vertex request sent with Authorization: Bearer (a Google access token) reaches the upstream carrying exactly one credential: one credential header, once, the client\'s or the gateway\'s own; never one credential beside another (x-api-key beside Authorization: Bearer, x-goog-api-key beside `?key=`) nor the same header twice. The check names the credentials that arrived, never their values.',
  fix: 'Send Vertex one credential: the Google access token in `Authorization: Bearer`, the client\'s or the gateway\'s own; never an `x-api-key` or `x-goog-api-key` beside it, nor a second `Authorization`.',
  run: (ctx) => oneCredential(ctx, 'vertex', STYLES),
});
