// The service profile (SVC-1..4) end to end through the CLI (in this process), against the service emulator
// standing in for the hosted service: exit codes, the key kept out of every report, and each
// service check proven to fail on a broken service (emulator settings, or a reference-gateway
// fault placed in front of the emulator).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOCKED_NATIVE_MODEL, ServiceEmulator, type ServiceOptions } from '../../../mocks/upstream/service.js';
import { ReferenceGateway } from '../../../reference/gateway.js';
import { faultByName } from '../../../reference/faults/index.js';
import { SERVICE_CHECKS } from '../../../suites/service/index.js';
import { cli } from '../../helpers/cli.js';
import { cliInProcess } from '../../helpers/in-process.js';

const KEY = 'sk-svc-SECRET-7f3a9c1e';
const ENV = { GWC_SERVICE_KEY: KEY, GWC_MESSAGES_MODEL: 'claude-sonnet-4-5-20250929', GWC_NATIVE_MODEL: 'gemini-2.5-flash', GWC_CHAT_MODEL: 'gpt-4o-mini', GWC_RESPONSES_MODEL: 'gpt-4.1-mini', GWC_VERTEX_MODEL: 'claude-sonnet-4-5@20250929' };

interface Report {
  exitCode: number;
  upstream: string | null;
  profile: string;
  results: Array<{ id: string; outcome: string; message: string }>;
}

/** A service run against `target`, in this process unless `run` is cli (a process of its own). */
async function serviceRun(target: string, env: Record<string, string | undefined> = {}, run: typeof cli = cliInProcess) {
  const out = mkdtempSync(join(tmpdir(), 'gwc-svc-'));
  const r = await run(['run', '--profile', 'service', '--target', target, '--out', out, '--reporter', 'json', '--reporter', 'junit', '--reporter', 'console'], { env: { ...ENV, ...env }, timeoutMs: 60_000 });
  const json = readFileSync(join(out, 'report.json'), 'utf8');
  const xml = readFileSync(join(out, 'junit.xml'), 'utf8');
  const report = JSON.parse(json) as Report;
  const outcomes = Object.fromEntries(report.results.map((x) => [x.id, x.outcome]));
  return { ...r, json, xml, report, outcomes, message: (id: string) => report.results.find((x) => x.id === id)?.message ?? '' };
}

async function withEmulator<T>(opts: Partial<ServiceOptions>, fn: (url: string, svc: ServiceEmulator) => Promise<T>): Promise<T> {
  const svc = new ServiceEmulator({ key: KEY, ...opts });
  try {
    return await fn(await svc.start(), svc);
  } finally {
    await svc.stop();
  }
}

/** The emulator behind the reference gateway with one fault: a broken gateway in front of the service. */
async function behindFault<T>(fault: string, fn: (url: string) => Promise<T>): Promise<T> {
  return withEmulator({}, async (upstream) => {
    const gw = new ReferenceGateway({ upstream, fault: faultByName(fault) });
    try {
      return await fn(await gw.start());
    } finally {
      await gw.stop();
    }
  });
}

const allPass = Object.fromEntries(SERVICE_CHECKS.map((c) => [c.id, 'pass']));

describe('service emulator', () => {
  let svc: ServiceEmulator;
  let url: string;
  beforeAll(async () => {
    svc = new ServiceEmulator({ key: KEY });
    url = await svc.start();
  });
  afterAll(() => svc.stop());

  const post = async (path: string, headers: Record<string, string>, body: unknown) => {
    const res = await request(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: res.statusCode, body: (await res.body.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };

  it("answers each protocol's bad key in that protocol's shape", async () => {
    const nat = await post('/v1beta/models/gemini-2.5-flash:generateContent', { 'x-goog-api-key': 'nope' }, { contents: [] });
    expect(nat.status).toBe(400);
    expect(nat.body.error).toMatchObject({ status: 'INVALID_ARGUMENT', code: 400 });
    const chat = await post('/v1/chat/completions', { authorization: 'Bearer nope' }, { messages: [] });
    expect(chat.status).toBe(401);
    expect(chat.body.error.code).toBe('invalid_api_key');
    const msg = await post('/v1/messages', { 'x-api-key': 'nope' }, {});
    expect(msg.status).toBe(401);
    expect(msg.body.error.type).toBe('authentication_error');
  });

  it('takes the key from x-goog-api-key or ?key=, refuses a chat body on the native path, and blocks its blocked model', async () => {
    const ok = await post(`/v1beta/models/gemini-2.5-flash:generateContent?key=${KEY}`, {}, { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    expect(ok.status).toBe(200);
    expect(ok.body.candidates[0].content.parts[0].text).toBeTruthy();
    const cross = await post('/v1beta/models/gemini-2.5-flash:generateContent', { 'x-goog-api-key': KEY }, { model: 'm', messages: [] });
    expect(cross.status).toBe(400);
    expect(cross.body.error.message).toMatch(/Unknown name "model"/);
    const blocked = await post(`/v1beta/models/${BLOCKED_NATIVE_MODEL}:generateContent`, { 'x-goog-api-key': KEY }, { contents: [] });
    expect(blocked.body.candidates[0]).toEqual(expect.objectContaining({ finishReason: 'SAFETY' }));
    expect(blocked.body.candidates[0]).not.toHaveProperty('content');
    expect(svc.requests.filter((r) => r.protocol === 'native').map((r) => [r.credential, r.keyValid])).toEqual([
      ['x-goog-api-key', false],
      ['key-query', true],
      ['x-goog-api-key', true],
      ['x-goog-api-key', true],
    ]);
  });
});

describe('gw-conformance run --profile service', () => {
  it('passes every service check against a working service, starts no upstream, and keeps the key out of the reports', async () => {
    await withEmulator({}, async (url, svc) => {
      const r = await serviceRun(url);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.outcomes).toEqual(allPass);
      expect(r.report).toMatchObject({ profile: 'service', upstream: null, exitCode: 0 });
      expect(r.json).not.toContain('SECRET');
      expect(r.xml).not.toContain('SECRET');
      expect(r.stdout).not.toContain('SECRET');
      // One key on the three protocols, in each protocol's own credential.
      const used = new Set(svc.requests.filter((q) => q.keyValid).map((q) => `${q.protocol}:${q.credential}`));
      expect([...used].sort()).toEqual(['chat:bearer', 'messages:bearer', 'models:bearer', 'native:x-goog-api-key']);
    });
  });

  it('a native model that answers without text fails SVC-4 naming the finish reason (exit 1)', async () => {
    await withEmulator({}, async (url) => {
      const r = await serviceRun(url, { GWC_NATIVE_MODEL: BLOCKED_NATIVE_MODEL });
      expect(r.code).toBe(1);
      expect(r.outcomes).toEqual({ ...allPass, 'service.native.no-text': 'fail' });
      expect(r.message('service.native.no-text')).toMatch(/no text \(finishReason SAFETY\)/);
      expect(r.message('service.native.answers')).toMatch(/no text \(finishReason SAFETY/);
    });
  });

  it('a key the service does not accept fails the protocols (SVC-1), not the harness (exit 1)', async () => {
    await withEmulator({}, async (url) => {
      const r = await serviceRun(url, { GWC_SERVICE_KEY: 'sk-svc-WRONG-000000' });
      expect(r.code).toBe(1);
      for (const id of ['service.messages.answers', 'service.native.answers', 'service.chat.answers', 'service.models.list']) expect(r.outcomes[id], id).toBe('fail');
      expect(r.message('service.native.answers')).toMatch(/answered 400/);
      expect(r.json).not.toContain('WRONG');
    });
  });

  it('a slow or redirecting model list fails SVC-3', async () => {
    // The emulator's delay is timed in this process: a run beside it would count a hold of this
    // process's event loop as the harness's own (taken off the time, src/core/stall.ts), not the service's.
    // The run is a process of its own, so the delay is all the service's, as it is for a real one.
    // The check takes the run's own holds off a call's time (a loaded machine's), and measures a call
    // again when the rest is under its 3 s: a 4 s delay left 1 s for those holds, and with the
    // suite's files beside it on two cores they passed it (the check said it could not judge: an
    // error, not the fail). 9 s leaves the run 6 s of holds a call, two thirds of it.
    await withEmulator({ modelListDelayMs: 9000 }, async (url) => {
      const r = await serviceRun(url, {}, cli);
      expect(r.outcomes).toEqual({ ...allPass, 'service.models.list': 'fail' });
      expect(r.message('service.models.list')).toMatch(/took \d+ ms/);
    });
    await withEmulator({ modelListRedirect: true }, async (url) => {
      const r = await serviceRun(url);
      expect(r.outcomes).toEqual({ ...allPass, 'service.models.list': 'fail' });
      expect(r.message('service.models.list')).toMatch(/redirected \(301 to https:/);
    });
  });

  it('a gateway in front that turns the chat 401 into a 500 fails SVC-2', async () => {
    await behindFault('chat-401-as-500', async (url) => {
      const r = await serviceRun(url);
      expect(r.outcomes).toEqual({ ...allPass, 'service.auth.bad-key': 'fail' });
      expect(r.message('service.auth.bad-key')).toMatch(/chat .*got 500/);
    });
  });

  it('a gateway in front that turns blocked answers into empty successes is caught by SVC-4 as an empty STOP', async () => {
    await withEmulator({}, async (upstream) => {
      const gw = new ReferenceGateway({ upstream, fault: faultByName('blocked-as-empty-success') });
      try {
        const r = await serviceRun(await gw.start(), { GWC_NATIVE_MODEL: BLOCKED_NATIVE_MODEL });
        expect(r.outcomes['service.native.no-text']).toBe('fail');
        expect(r.message('service.native.no-text')).toMatch(/finishReason STOP: an empty answer presented as a success/);
      } finally {
        await gw.stop();
      }
    });
  });

  it('a gateway in front that drops the chat [DONE] fails SVC-1 on chat only', async () => {
    await behindFault('drop-done', async (url) => {
      const r = await serviceRun(url);
      expect(r.outcomes).toEqual({ ...allPass, 'service.chat.answers': 'fail' });
      expect(r.message('service.chat.answers')).toMatch(/did not end with data: \[DONE\]/);
    });
  });

  it('a gateway in front that encodes the native ":" fails SVC-1 on native (the service answers 404)', async () => {
    await behindFault('encode-native-colon', async (url) => {
      const r = await serviceRun(url);
      expect(r.outcomes['service.native.answers']).toBe('fail');
      expect(r.message('service.native.answers')).toMatch(/answered 404/);
    });
  });

  it('a gateway in front that drops the messages credential fails SVC-1 on messages', async () => {
    await behindFault('drop-credential', async (url) => {
      const r = await serviceRun(url);
      expect(r.outcomes['service.messages.answers']).toBe('fail');
      expect(r.message('service.messages.answers')).toMatch(/answered 401/);
    });
  });

  it('missing environment variables: exit 2 with one line naming them', async () => {
    const r = await cliInProcess(['run', '--profile', 'service', '--target', 'http://127.0.0.1:9'], { env: { ...ENV, GWC_SERVICE_KEY: '', GWC_CHAT_MODEL: undefined } });
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/the service profile needs GWC_SERVICE_KEY, GWC_CHAT_MODEL in the environment/);
  });

  it('mock --service without GWC_SERVICE_KEY: exit 2 with one line', async () => {
    const r = await cliInProcess(['mock', '--service', '--listen', '127.0.0.1:0'], { env: { GWC_SERVICE_KEY: '' } });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/mock --service needs GWC_SERVICE_KEY/)]);
  });

  it('outside the service profile a service check named by id is skipped, not failed', async () => {
    const out = mkdtempSync(join(tmpdir(), 'gwc-svc-'));
    const r = await cliInProcess(['demo', '--only', 'service.native.no-text', '--reporter', 'json', '--out', out]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    expect(report.results.map((x) => [x.id, x.outcome])).toEqual([['service.native.no-text', 'skip']]);
    expect(report.results[0].message).toMatch(/^not declared: service \(the hosted-service checks run with --profile service\)/);
  });
});
