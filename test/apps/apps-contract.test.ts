// The apps gateway's contract (src/core/apps-contract.ts): a served contract is compared with the
// one the catalog was written against by its statements, whatever the line wrapping; the report
// records what the gateway served at GET /protocol; and APP-TEL-5's pieces: the collector's
// endpoint that needs a token, and the reading of the OTLP variables a gateway hands out.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractDifferences, contractDocument, EXPECTED_APPS_CONTRACT, sha256Of } from '../../src/core/apps-contract.js';
import { fetchContract } from '../../cli/profiles/apps/apps-ready.js';
import { OtlpCollector } from '../../mocks/otlp/collector.js';
import { otlpHeaders, tracesEndpoint } from '../../suites/apps/apps.tel.credential.js';

describe('the expected apps contract', () => {
  it("the reference's contract makes every statement; a dropped statement is named with the requirements it backs", () => {
    const all = contractDifferences(contractDocument());
    expect(all.missing).toEqual([]);
    expect(all.same).toBe(false);
    expect(all.headingsGone).toEqual([...EXPECTED_APPS_CONTRACT.headings]);
    const drifted = contractDifferences(contractDocument((s) => s.backs === 'APP-TEL-4'));
    expect(drifted.missing.map((s) => s.backs)).toEqual(['APP-TEL-4']);
  });

  it('matches a statement however the served Markdown wraps it, and tells a changed word', () => {
    const wrapped = contractDocument().replace('Return `200` whether you forward or discard', 'Return `200`\n  whether you\tforward or discard');
    expect(contractDifferences(wrapped).missing).toEqual([]);
    const changed = contractDocument().replace('Return `200` whether you forward or discard', 'Return `204` whether you forward or discard');
    expect(contractDifferences(changed).missing.map((s) => s.backs)).toEqual(['APP-TEL-4']);
  });

  it('reads the headings of a served contract, added and gone', () => {
    const text = `# ${EXPECTED_APPS_CONTRACT.headings[0]}\n\n## Flow\n\n## Something new\n`;
    const d = contractDifferences(text);
    expect(d.headingsAdded).toEqual(['Something new']);
    expect(d.headingsGone).not.toContain('Flow');
    expect(d.headingsGone).toContain('Errors');
    expect(d.sha256).toBe(sha256Of(text));
  });
});

describe('what the report records of GET /protocol', () => {
  let server: http.Server;
  let url = '';
  let answer: { status: number; body: string } = { status: 200, body: '' };
  beforeAll(async () => {
    server = http.createServer((_, res) => res.writeHead(answer.status, { 'content-type': 'text/markdown; charset=utf-8' }).end(answer.body));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('a served contract: status, size, type and the sha256 digest of its bytes, beside the expected digest', async () => {
    answer = { status: 200, body: 'Ünïcode contract\n' };
    expect(await fetchContract(url)).toEqual({ path: '/protocol', status: 200, digest: `sha256:${sha256Of(Buffer.from(answer.body))}`, bytes: Buffer.byteLength(answer.body), contentType: 'text/markdown; charset=utf-8', expectedDigest: `sha256:${EXPECTED_APPS_CONTRACT.sha256}` });
  });

  it('none served: the status only; nothing listening: status 0', async () => {
    answer = { status: 404, body: 'not found' };
    expect(await fetchContract(url)).toEqual({ path: '/protocol', status: 404, expectedDigest: `sha256:${EXPECTED_APPS_CONTRACT.sha256}` });
    expect((await fetchContract('http://127.0.0.1:1')).status).toBe(0);
  });
});

describe('APP-TEL-5: an OTLP endpoint with a credential', () => {
  const collector = new OtlpCollector({ prefix: '/direct', token: 'tok-1' });
  beforeAll(() => collector.start());
  afterAll(() => collector.stop());
  const post = (path: string, headers: Record<string, string> = {}) => fetch(`${collector.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"resourceSpans":[]}' }).then((r) => r.status);

  it('the collector takes exports under its prefix only with the token, and elsewhere as before', async () => {
    expect(await post('/direct/v1/traces')).toBe(401);
    expect(await post('/direct/v1/traces', { authorization: 'Bearer wrong' })).toBe(401);
    expect(await post('/direct/v1/traces', { authorization: 'Bearer tok-1' })).toBe(200);
    expect(await post('/v1/traces')).toBe(200);
  });

  it('reads the endpoint and headers a client would use from managed settings env', () => {
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9/direct/' })).toBe('http://127.0.0.1:9/direct/v1/traces');
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a/x', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b/t' })).toBe('http://b/t');
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBeUndefined();
    expect(otlpHeaders({ OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Bearer%20abc, x-tenant=t1' })).toEqual({ authorization: 'Bearer abc', 'x-tenant': 't1' });
    expect(otlpHeaders({ OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Bearer a', OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'Authorization=Bearer b' })).toEqual({ authorization: 'Bearer b' });
    expect(otlpHeaders({ OTEL_EXPORTER_OTLP_HEADERS: 'broken,=x' })).toEqual({});
  });
});
