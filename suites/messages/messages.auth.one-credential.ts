// AUTH-UP-1 for the messages protocol: each credential style its clients use reaches the upstream as
// exactly one credential (suites/shared/one-credential.ts judges it).
import { defineCheck } from '../../src/check/check.js';
import type { AuthStyle } from '../../src/client/gateway.js';
import { oneCredential } from '../shared/one-credential.js';

const STYLES: readonly AuthStyle[] = ['bearer', 'x-api-key'];

export default defineCheck({
  id: 'messages.auth.one-credential',
  title: 'A messages request sent with Authorization: Bearer, then x-api-key reaches the upstream with exactly one credential',
  requirements: ['AUTH-UP-1'],
  level: 'MUST',
  credential: true,
  protocol: 'messages',
  requirement: 'A messages request sent with Authorization: Bearer (an OAuth client), then with x-api-key reaches the upstream carrying exactly one credential: one credential header, once, the client\'s or the gateway\'s own; never one credential beside another (x-api-key beside Authorization: Bearer, x-goog-api-key beside `?key=`) nor the same header twice. The check names the credentials that arrived, never their values.',
  fix: 'Send the upstream one credential. When the gateway adds its provider key (`x-api-key`), remove the client\'s `Authorization` and `x-api-key` first; when it forwards the client\'s, add none of its own. An OAuth client\'s bearer must not gain an `x-api-key` beside it. nginx: `proxy_set_header Authorization "";` beside `proxy_set_header x-api-key $key;`.',
  run: (ctx) => oneCredential(ctx, 'messages', STYLES),
});
