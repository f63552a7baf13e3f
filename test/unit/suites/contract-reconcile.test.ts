// Where the real apps gateway's contract (GET /protocol) and the letter of the interface part, the
// checks follow the real client by default and the letter under --strict: a JSON 404 from
// discovery (DISC-1), a model-not-found 404 that advances a declared failover chain (ERR-RETRY-2),
// a generic error message from a cloud upstream (ERR-PASS-1, judged on translated routes: the
// reference gateway's route to Bedrock).
// Each verdict is shown on the reference gateway with the fault that behaves so.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { notFoundProblems } from '../../../suites/errors/errors.retry.client-errors.js';
import { nextInChain } from '../../../reference/faults/contract.js';
import { errorProblems } from '../../../suites/translate/translate.errors.mapped.js';
import { cliInProcess } from '../../helpers/in-process.js';

/** One check against the reference gateway with a fault: its outcome and message. */
async function verdict(fault: string, check: string, extra: string[] = []): Promise<{ outcome: string; message: string }> {
  const out = mkdtempSync(join(tmpdir(), 'gwc-reconcile-'));
  const r = await cliInProcess(['demo', '--fault', fault, '--only', check, '--seed', '1', '--reporter', 'json', '--out', out, ...extra], { timeoutMs: 60_000 });
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { results: { id: string; outcome: string; message: string }[] };
  const x = report.results.find((y) => y.id === check);
  if (!x) throw new Error(`${check} did not run: ${r.stdout}${r.stderr}`);
  return x;
}

describe('DISC-1: a JSON 404 from discovery means "not offered"', () => {
  it('is reported (info) by default, not failed, and a failure under --strict', { timeout: 120_000 }, async () => {
    const [plain, strict] = await Promise.all([verdict('discovery-not-offered', 'discovery.models.json'), verdict('discovery-not-offered', 'discovery.models.json', ['--strict'])]);
    expect(plain.outcome).toBe('info');
    expect(plain.message).toMatch(/^discovery is not offered: a JSON 404 for every credential style/);
    expect(strict.outcome).toBe('fail');
    expect(strict.message).toMatch(/did not answer a JSON model list or a JSON 401\/403 \(6 of 6 credential styles\)/);
  });
});

describe('ERR-RETRY-2: a model-not-found 404 and a declared failover chain', () => {
  it('a failover to the next model fails undeclared, passes declared (the report names the chain), fails declared under --strict', { timeout: 120_000 }, async () => {
    const [undeclared, declared, strict] = await Promise.all([
      verdict('model-404-fails-over', 'errors.retry.client-errors'),
      verdict('model-404-fails-over', 'errors.retry.client-errors', ['--failover-chain', '1']),
      verdict('model-404-fails-over', 'errors.retry.client-errors', ['--failover-chain', '1', '--strict']),
    ]);
    expect(undeclared.outcome).toBe('fail');
    expect(undeclared.message).toContain('no failover chain is declared (--failover-chain)');
    expect(declared.outcome).toBe('pass');
    expect(declared.message).toMatch(/the 404 advanced the declared failover chain \(--failover-chain 1\): (\S+) -> \1-fallback-1/);
    expect(strict.outcome).toBe('fail');
    expect(strict.message).toContain('--strict: no failover on a 404, declared or not');
  });

  it('a declared chain allows neither the same model again nor more steps than declared', () => {
    expect(notFoundProblems(['m'], 0, false)).toBeNull();
    expect(notFoundProblems(['m', nextInChain('m')], 1, false)).toBeNull();
    expect(notFoundProblems(['m', 'm'], 3, false)).toMatch(/again with the same model m/);
    expect(notFoundProblems(['m', 'm-fallback-1', 'm-fallback-2'], 1, false)).toMatch(/more than 1 \+ the declared --failover-chain 1/);
    expect(notFoundProblems(['m', 'm-fallback-1', 'm-fallback-2'], 2, false)).toBeNull();
    expect(nextInChain('m-fallback-1')).toBe('m-fallback-2');
  });
});

describe('ERR-PASS-1: an error from a cloud upstream on a translated route', () => {
  const said = 'gw-conformance scripted 400 for the translated route';
  const body = (type: string, message: string) => JSON.stringify({ type: 'error', error: { type, message } });
  const judge = (upstream: 'bedrock' | 'vertex' | 'chat', strict: boolean, b: string, status = 400) => errorProblems({ status, upstream, strict, message: said, resStatus: status, body: b, retryAfter: undefined });

  it('may carry a generic message, keeping status and error.type; under --strict the message is required', () => {
    expect(judge('bedrock', false, body('invalid_request_error', 'the upstream refused the request'))).toEqual([]);
    expect(judge('vertex', false, body('invalid_request_error', 'the upstream refused the request'))).toEqual([]);
    expect(judge('bedrock', true, body('invalid_request_error', 'the upstream refused the request'))).toEqual(["the upstream's message is not in it"]);
    expect(judge('bedrock', true, body('invalid_request_error', `upstream: ${said}`))).toEqual([]);
  });

  it('needs the error.type of the status from a cloud upstream, and the message from any other', () => {
    expect(judge('bedrock', false, body('api_error', 'generic'))).toEqual(['error.type "api_error" where a 400 is "invalid_request_error"']);
    expect(judge('chat', false, body('api_error', 'generic'))).toEqual(["the upstream's message is not in it"]);
    expect(judge('chat', false, body('api_error', said))).toEqual([]);
  });

  it("on the reference gateway's route to Bedrock: a generic message passes by default, named as generic, and fails under --strict", { timeout: 120_000 }, async () => {
    const [plain, strict] = await Promise.all([verdict('translate-bedrock-generic-message', 'translate.errors.mapped'), verdict('translate-bedrock-generic-message', 'translate.errors.mapped', ['--strict'])]);
    expect(plain.outcome).toBe('pass');
    expect(plain.message).toMatch(/\(400 in bedrock, 429 in bedrock, 500 in bedrock\).*the message of the 400, 429, 500 was generic/);
    expect(strict.outcome).toBe('fail');
    expect(strict.message).toBe("an upstream 400 answered in bedrock reached the client as the upstream's message is not in it");
  });
});
