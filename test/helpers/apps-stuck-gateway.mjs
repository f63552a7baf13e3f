// An apps gateway that never finishes sign-in (for the bad-input tests): it serves the metadata
// document, device authorization and a verification page, but the browser's approval
// (POST /device) is never answered, so every poll stays `authorization_pending`.
// Usage: node apps-stuck-gateway.mjs PORT
import http from 'node:http';

const port = Number(process.argv[2]);
const base = `http://127.0.0.1:${port}`;
const json = (res, status, body) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
http
  .createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    req.resume();
    if (path === '/.well-known/oauth-authorization-server') return json(res, 200, { issuer: base, device_authorization_endpoint: `${base}/oauth/device_authorization`, token_endpoint: `${base}/oauth/token` });
    if (path === '/oauth/device_authorization') return json(res, 200, { device_code: 'dc', user_code: 'ABCD-EFGH', verification_uri: `${base}/device`, verification_uri_complete: `${base}/device?user_code=ABCD-EFGH`, expires_in: 600, interval: 0 });
    if (path === '/oauth/token') return json(res, 400, { error: 'authorization_pending' });
    if (path === '/device' && req.method === 'GET') return res.writeHead(200, { 'content-type': 'text/html' }).end('<form method="post"></form>');
    if (path === '/device') return; // the approval never gets an answer
    if (path === '/healthz') return res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    return json(res, 401, { type: 'error', error: { type: 'authentication_error', message: 'invalid token' } });
  })
  .listen(port, '127.0.0.1', () => console.log(`stuck gateway on ${base}`));
