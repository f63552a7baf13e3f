// A gateway for --gateway-cmd that dies the way a real one did: a plain forwarding proxy that
// leaves an upstream stream's reset unhandled, so the reset (errors.upstream.reset's scripted
// one) is an uncaught exception and the process exits 1. Usage:
//   node test/helpers/crash-gateway.mjs <listen_port> <upstream_url>
import http from 'node:http';

const [port, upstream] = process.argv.slice(2);
const server = http.createServer((req, res) => {
  const up = http.request(new URL(req.url, upstream), { method: req.method, headers: { ...req.headers, host: new URL(upstream).host } }, (ures) => {
    res.writeHead(ures.statusCode ?? 502, ures.headers);
    // No 'error' listener on the response: its reset ('aborted', then an ECONNRESET error) throws.
    ures.on('aborted', () => {
      throw new Error('upstream stream reset');
    });
    ures.pipe(res);
  });
  // A reset before the answer's headers is the same fault: thrown, never handled.
  up.on('error', (e) => {
    throw e;
  });
  req.pipe(up);
});
server.listen(Number(port), '127.0.0.1');
