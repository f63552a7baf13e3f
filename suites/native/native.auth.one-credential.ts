// AUTH-UP-1 for the native protocol: each credential style its clients use reaches the upstream as
// exactly one credential (suites/shared/one-credential.ts judges it).
import { defineCheck } from '../../src/check/check.js';
import type { AuthStyle } from '../../src/client/gateway.js';
import { oneCredential } from '../shared/one-credential.js';

const STYLES: readonly AuthStyle[] = ['x-goog-api-key', 'key-query'];

export default defineCheck({
  id: 'native.auth.one-credential',
  title: 'A native request sent with x-goog-api-key, then ?key= reaches the upstream with exactly one credential',
  requirements: ['AUTH-UP-1'],
  level: 'MUST',
  credential: true,
  protocol: 'native',
  requirement: 'A native request sent with x-goog-api-key, then with the `?key=` query reaches the upstream carrying exactly one credential: one credential header, once (or the `?key=` query alone), the client\'s or the gateway\'s own; never one credential beside another (x-api-key beside Authorization: Bearer, x-goog-api-key beside `?key=`) nor the same header twice. The check names the credentials that arrived, never their values.',
  fix: 'Send the upstream one credential. When the gateway adds its own key (`x-goog-api-key`), remove the client\'s `x-goog-api-key`, `Authorization` and the `key` query parameter first; when it forwards the client\'s (header or `?key=`), add none of its own.',
  run: (ctx) => oneCredential(ctx, 'native', STYLES),
});
